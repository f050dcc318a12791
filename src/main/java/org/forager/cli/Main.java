package org.forager.cli;

import java.io.IOException;
import java.util.List;
import org.forager.cli.log.Logging;
import org.forager.io.IoFailures;
import org.forager.record.TerminalText;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code forager}: entry point. Exit codes: 0 when the command did its job, 1 when it failed at run
 * time (e.g. the data directory is in use), 2 on bad usage or configuration (one line naming it).
 */
@Command(
    name = "forager",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "A polite web crawler: crawls the origins of its seeds into a crawl database, WARC files and a crawl log.")
public final class Main implements Runnable {

  /**
   * The subcommands, in the order {@code --help} lists them. Added to the command line by {@link
   * #run}, not named in the annotation: picocli builds the model of every subcommand it is given, by
   * reflection and at every start (most of the 0.3 s picocli took of a start; docs/benchmarks.md,
   * session 28), so a command line that names one gets that one alone.
   */
  private static final List<Class<?>> SUBCOMMANDS = List.of(CrawlCommand.class, ExportCommand.class,
      AuditCommand.class, StatusCommand.class, CtlCommand.class, CommandLine.HelpCommand.class);

  public static final int EXIT_RUNTIME = 1;
  public static final int EXIT_USAGE = 2;
  /**
   * A crawl stopped before it finished (a signal, {@code forager ctl stop}): not 0, so that a script
   * publishing a finished crawl can tell; running again resumes. A continuous crawl's stop is its end: 0.
   */
  public static final int EXIT_STOPPED = 4;
  /**
   * Standard output's reader went away before the output ended ({@code forager export | head}): the
   * status a shell reports for a process a closed pipe's SIGPIPE ended (128 + 13), which the JVM
   * ignores; nothing is printed.
   */
  public static final int EXIT_PIPE_CLOSED = 141;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * The {@code forager} process: library logging goes to {@code logs/library.log} instead of the
   * terminal, and a thread that dies of an error nobody caught ends the process with one line
   * ({@link FatalErrors}). Both are process-wide, so {@link #run} (for tests and embedding) leaves
   * them alone.
   */
  public static void main(String[] args) {
    Logging.routeToLibraryLog();
    FatalErrors.install();
    StandardOutput.ownedByProcess();
    // After the two above: what it logs goes to the library log, what kills it is one line.
    boolean crawl = Preload.start(args).isPresent();
    ProcessExit.exit(run(args), crawl);
  }

  /** Runs the command line and returns the exit code (for tests and embedding). */
  public static int run(String... args) {
    CommandLine cli = new CommandLine(new Main());
    String named = args.length > 0 ? args[0] : "";
    List<Class<?>> subcommands = SUBCOMMANDS.stream().filter(c -> nameOf(c).equals(named)).toList();
    for (Class<?> subcommand : subcommands.isEmpty() || named.equals("help") ? SUBCOMMANDS : subcommands) {
      cli.addSubcommand(subcommand);
    }
    // The descriptions are laid out in lines of up to 105 columns; picocli's 80 wrapped them again,
    // mid-sentence and inside URLs. After the subcommands: the width is set on those added so far.
    cli.setUsageHelpWidth(110);
    // An order's arguments are its own: a negative delay (set-delay ORIGIN -1s) is its error, not an unknown option.
    CommandLine ctl = cli.getSubcommands().get("ctl");
    if (ctl != null) ctl.setUnmatchedOptionsArePositionalParams(true);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("forager: " + TerminalText.escape(message(e)));
      return EXIT_RUNTIME;
    });
    cli.setParameterExceptionHandler((e, args2) -> {
      CommandLine c = e.getCommandLine();
      // A URL where crawl takes none (forager crawl https://example.org/) is most likely a seed.
      String hint = e instanceof CommandLine.UnmatchedArgumentException unmatched && c.getCommandName().equals("crawl")
          && unmatched.getUnmatched().stream().anyMatch(a -> a.contains("://"))
          ? "; a seed is given as --seed URL (or --seeds-file FILE)"
          // A misspelt option (--seeds) is told what picocli finds close to it.
          : e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()
          ? "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?" : "";
      // One line, as every usage error (README): the way to the options in it.
      c.getErr().println("forager: " + TerminalText.escape(e.getMessage()) + hint + " (see '"
          + c.getCommandSpec().qualifiedName() + " --help')");
      return EXIT_USAGE;
    });
    return cli.execute(args);
  }

  /**
   * What a command's unexpected failure tells the user: the message of one of Forager's own (which
   * names what failed), the system's reason for a file operation's (whose message is often the path
   * alone), never a class name.
   */
  private static String message(Exception e) {
    if (e instanceof IOException io) return IoFailures.reason(io);
    String message = e.getMessage();
    return message == null || message.isBlank() ? IoFailures.reason(e) : message;
  }

  private static String nameOf(Class<?> subcommand) {
    return subcommand.getAnnotation(Command.class).name();
  }

  @Override
  public void run() {
    List<String> names = SUBCOMMANDS.stream().filter(c -> c != CommandLine.HelpCommand.class).map(Main::nameOf).toList();
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command: "
        + String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1));
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"forager " + (v == null ? "development build" : v)};
    }
  }
}
