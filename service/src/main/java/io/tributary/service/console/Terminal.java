package io.tributary.service.console;

import java.util.Map;

/**
 * Whether stderr is a terminal a person watches, so that a bounded run draws its progress bar
 * there. The launcher ({@code bin/tributary}) asks the shell ({@code [ -t 2 ]}) and passes the
 * answer as the system property {@value #PROPERTY}; without it (the JVM started otherwise) the JVM's
 * console stands in, which exists only when stdin and stdout are terminals. A dumb terminal
 * ({@code TERM=dumb}) and JSON logs (read by programs) never get a bar.
 */
public final class Terminal {
    /** {@code true} or {@code false}: whether the launcher found stderr to be a terminal. */
    public static final String PROPERTY = "tributary.stderr.tty";

    private Terminal() {
    }

    /** The decision for this process. */
    public static boolean stderrIsTerminal(boolean jsonLogs) {
        return stderrIsTerminal(System.getenv(), System.getProperty(PROPERTY), System.console() != null, jsonLogs);
    }

    /**
     * @param launcherSays the launcher's answer ({@code true}/{@code false}), or null when it gave none
     * @param console whether the JVM has a console
     */
    static boolean stderrIsTerminal(Map<String, String> env, String launcherSays, boolean console, boolean jsonLogs) {
        if (jsonLogs || "dumb".equals(env.get("TERM"))) {
            return false;
        }
        if (launcherSays != null) {
            return Boolean.parseBoolean(launcherSays.strip());
        }
        return console;
    }

    /** The terminal's width: {@code COLUMNS} when the shell exports it, else 100. */
    public static int columns(Map<String, String> env) {
        try {
            int c = Integer.parseInt(env.getOrDefault("COLUMNS", "").strip());
            return c >= 20 ? c : 100;
        } catch (NumberFormatException e) {
            return 100;
        }
    }
}
