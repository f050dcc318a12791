package org.forager.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * SIGINT and SIGTERM for a crawl: the first one stops it gracefully (the fetches in flight finish,
 * the outputs are closed, the summary printed); a second one stops the process at once, which is
 * still safe to resume (as after a kill). Uses {@code sun.misc.Signal} through reflection: it is the
 * only way to see a second signal, and the JDK has no supported equivalent.
 */
final class StopOnSignals {

  /** Set by a second signal: the process ends with 130 even if the graceful stop wins the race to exit. */
  private static volatile boolean stoppedAtOnce;

  private StopOnSignals() {}

  /** Whether a second signal asked to stop at once (the exit status is then 130, whoever exits first). */
  static boolean stoppedAtOnce() {
    return stoppedAtOnce;
  }

  /** Installs the handlers; false when this JVM does not offer them (the shutdown hook then applies). */
  static boolean install(Runnable stopGracefully) {
    AtomicInteger signals = new AtomicInteger();
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      InvocationHandler onSignal = (Object proxy, Method method, Object[] args) -> {
        if (!method.getName().equals("handle")) return method.invoke(stopGracefully, args);
        if (signals.incrementAndGet() == 1) {
          System.err.println("forager: stopping after the fetches in flight (signal again to stop at once)...");
          Thread.ofPlatform().name("forager-stop").start(stopGracefully);
        } else {
          stoppedAtOnce = true;
          System.err.println("forager: stopping at once; what was recorded is safe, run again to resume");
          Runtime.getRuntime().halt(130);
        }
        return null;
      };
      Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass}, onSignal);
      Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
      for (String name : new String[] {"INT", "TERM"}) {
        handle.invoke(null, signalClass.getConstructor(String.class).newInstance(name), handler);
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException unavailable) {
      return false;
    }
  }
}
