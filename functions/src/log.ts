import { write, type LogSeverity } from 'firebase-functions/logger';

/**
 * Named, structured log events. logger.error() would attach a stack trace to
 * every entry; these entries carry only the event name and the given fields,
 * which must never include secrets, tokens, codes or raw API keys.
 */
function event(severity: LogSeverity, name: string, fields: Record<string, unknown>): void {
  write({ severity, message: name, ...fields });
}

export const logInfo = (name: string, fields: Record<string, unknown> = {}) => event('INFO', name, fields);
export const logWarn = (name: string, fields: Record<string, unknown> = {}) => event('WARNING', name, fields);
export const logError = (name: string, fields: Record<string, unknown> = {}) => event('ERROR', name, fields);
