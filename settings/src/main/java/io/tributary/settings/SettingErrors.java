package io.tributary.settings;

/** The settings' error messages. */
final class SettingErrors {
    private SettingErrors() {
    }

    /** A value that is not one of its setting's: {@code key 'k' is 'v'; } and {@code problem}, what is expected. */
    static Setting.Invalid invalid(String key, String text, String problem) {
        return new Setting.Invalid(key, text, problem);
    }
}
