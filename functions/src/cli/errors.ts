/** Bad command line: the reason and the usage on stderr, exit 2. */
export class UsageError extends Error {}
/** A failure to report in one line (or a short list): exit 1. */
export class CliError extends Error {}
