import { write, type LogEntry, type LogSeverity } from 'firebase-functions/logger';

let sink: (entry: LogEntry) => void = write;

/**
 * Where the events go: Cloud Logging's structured lines on stdout/stderr by default.
 * The operator CLI sends them to stderr, keeping stdout for its results.
 */
export function sendLogsTo(destination: (entry: LogEntry) => void): void {
  sink = destination;
}

/**
 * Named, structured log events. logger.error() would attach a stack trace to
 * every entry; these entries carry only the event name and the given fields,
 * which must never include secrets, tokens, codes or raw API keys.
 */
function event(severity: LogSeverity, name: string, fields: Record<string, unknown>): void {
  sink({ severity, message: name, ...fields });
}

export const logInfo = (name: string, fields: Record<string, unknown> = {}) => event('INFO', name, fields);
export const logWarn = (name: string, fields: Record<string, unknown> = {}) => event('WARNING', name, fields);
export const logError = (name: string, fields: Record<string, unknown> = {}) => event('ERROR', name, fields);
