// Opens a page in headless Chromium (driven by playwright-core) and waits until some frame of it,
// however nested (ReplayWeb.page shows the archived page in an iframe inside its shadow DOM),
// shows the expected text. Exit 0 when found, 1 when not found in time, 2 on bad arguments.
// Usage: node replay-check.mjs CHROMIUM PAGE_URL EXPECTED_TEXT TIMEOUT_MS
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
async function check() {
  try {
    const page = await browser.newPage();
    page.on('console', (m) => console.error(`console ${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(url);
    const deadline = Date.now() + Number(timeout);
    for (;;) {
      for (const frame of page.frames()) {
        const text = await frame.evaluate(() => (document.body ? document.body.innerText : '')).catch(() => '');
        if (text.includes(expected)) {
          console.log(`found in frame ${frame.url()}`);
          process.exitCode = 0;
          return;
        }
      }
      if (Date.now() > deadline) {
        console.log(`not found; frames: ${page.frames().map((f) => f.url()).join(' ')}`);
        process.exitCode = 1;
        return;
      }
      // Polls frames that appear as the replay loads; the deadline bounds it.
      await page.waitForTimeout(200);
    }
  } finally {
    await browser.close();
  }
}

await check();
