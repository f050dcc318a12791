// Opens a page in headless Chromium (driven by playwright-core) and waits until some frame of it,
// however nested (ReplayWeb.page shows the archived page in an iframe inside its shadow DOM),
// shows the expected text. Exit 0 when found, 1 when not found in time, 2 on bad arguments.
// Usage: node replay-check.mjs CHROMIUM PAGE_URL EXPECTED_TEXT TIMEOUT_MS
// On stderr, each line with the milliseconds since start: the page's and the service worker's
// console, frames navigated, requests that failed (REPLAY_DEBUG=1: every response too); when the
// text is not found, every frame's text, shadow roots included (what ReplayWeb.page's own UI shows).
import { chromium } from 'playwright-core';

const [executablePath, url, expected, timeout] = process.argv.slice(2);
if (!executablePath || !url || !expected || !timeout) {
  console.error('usage: node replay-check.mjs CHROMIUM PAGE_URL EXPECTED_TEXT TIMEOUT_MS');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath,
  // No host name resolves but loopback's: the replay must come from the package alone.
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'],
});
const start = Date.now();
const log = (line) => console.error(`+${Date.now() - start}ms ${line}`);

/** Resolves with the first frame whose body shows the text; frames are watched as they attach and navigate. */
function frameShowing(page, text) {
  return new Promise((resolve) => {
    const watch = (frame) => {
      // Checked in the frame on every animation frame until it holds; a navigation or detach ends
      // this wait (rejected, ignored) and the frame's next navigation starts another.
      frame.waitForFunction((t) => !!document.body && document.body.innerText.includes(t), text, { timeout: 0 })
        .then(() => resolve(frame), () => {});
    };
    page.on('framenavigated', watch);
    for (const frame of page.frames()) watch(frame);
  });
}

/** The text of every node of the frame, shadow roots included. */
function deepText(frame) {
  return frame.evaluate(() => {
    const out = [];
    const walk = (node) => {
      if (node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE && child.textContent.trim()) out.push(child.textContent.trim());
        else if (child.nodeType === Node.ELEMENT_NODE && !['STYLE', 'SCRIPT'].includes(child.tagName)) walk(child);
      }
    };
    walk(document);
    return out.join(' | ');
  }).catch((e) => `(${e.message})`);
}

async function check() {
  try {
    const context = await browser.newContext();
    context.on('serviceworker', (worker) => {
      log(`service worker ${worker.url()}`);
      worker.on('console', (m) => log(`service worker console ${m.type()}: ${m.text()}`));
    });
    const page = await context.newPage();
    page.on('console', (m) => log(`console ${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    page.on('framenavigated', (f) => log(`frame navigated ${f.url()}`));
    page.on('requestfailed', (r) => log(`request failed ${r.url()}: ${r.failure()?.errorText}`));
    if (process.env.REPLAY_DEBUG) page.on('response', (r) => log(`response ${r.status()} ${r.url()}`));
    const found = frameShowing(page, expected);
    await page.goto(url);
    let timer;
    const deadline = new Promise((resolve) => { timer = setTimeout(() => resolve(null), Number(timeout)); });
    const frame = await Promise.race([found, deadline]);
    clearTimeout(timer);
    if (frame) {
      console.log(`found in frame ${frame.url()}`);
      process.exitCode = 0;
      return;
    }
    console.log(`not found; frames: ${page.frames().map((f) => f.url()).join(' ')}`);
    for (const f of page.frames()) console.error(`text of frame ${f.url()}: ${(await deepText(f)).slice(0, 1500)}`);
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

await check();
