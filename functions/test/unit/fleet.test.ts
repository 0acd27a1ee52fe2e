/** The fleet's domain rules (contract §7): liveness, telemetry, alert conditions and alert paging. */
import {
  alertPageRequest,
  alertTransitions,
  silentConditions,
  telemetryConditions,
  type Conditions,
} from '../../src/domain/alerts';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor';
import { isOnline, isSilent, livenessWriteDue } from '../../src/domain/liveness';
import { alertNotification, OPERATORS_TOPIC } from '../../src/domain/messages';
import { NO_TELEMETRY, mergeTelemetry, reportsTelemetry, type Telemetry } from '../../src/domain/telemetry';
import { apiErrorOf } from './api-error';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;

describe('liveness', () => {
  test('lastSeenAt is written when none is stored, or the stored one is a minute old', () => {
    expect(livenessWriteDue(null, NOW)).toBe(true);
    expect(livenessWriteDue(ago(MINUTE), NOW)).toBe(true);
    expect(livenessWriteDue(ago(MINUTE - 1), NOW)).toBe(false);
    expect(livenessWriteDue(ago(0), NOW)).toBe(false);
    // Another instance's clock a little ahead: not written again.
    expect(livenessWriteDue(new Date(NOW.getTime() + 5000), NOW)).toBe(false);
  });

  test('online: seen within the window, its edge included; never seen is not online', () => {
    expect(isOnline(ago(15 * MINUTE), NOW, 15)).toBe(true);
    expect(isOnline(ago(15 * MINUTE + 1), NOW, 15)).toBe(false);
    expect(isOnline(ago(0), NOW, 15)).toBe(true);
    expect(isOnline(null, NOW, 15)).toBe(false);
  });

  test('silent: available, seen once, not within the window', () => {
    const unseen = ago(16 * MINUTE);
    expect(isSilent({ status: 'available', lastSeenAt: unseen }, NOW, 15)).toBe(true);
    expect(isSilent({ status: 'available', lastSeenAt: ago(14 * MINUTE) }, NOW, 15)).toBe(false);
    expect(isSilent({ status: 'available', lastSeenAt: null }, NOW, 15)).toBe(false);
    expect(isSilent({ status: 'maintenance', lastSeenAt: unseen }, NOW, 15)).toBe(false);
    expect(isSilent({ status: 'offline', lastSeenAt: unseen }, NOW, 15)).toBe(false);
  });
});

describe('telemetry', () => {
  const stored: Telemetry = { fillLevel: { plastic: 40, metal: 70 }, firmwareVersion: '2.4.0', errorCode: 'E1' };

  test('a report naming one bin keeps the other bin’s last level', () => {
    expect(mergeTelemetry(stored, { fillLevel: { plastic: 95 } }).fillLevel).toEqual({ plastic: 95, metal: 70 });
    expect(mergeTelemetry(stored, { fillLevel: { metal: 0 } }).fillLevel).toEqual({ plastic: 40, metal: 0 });
    expect(mergeTelemetry(NO_TELEMETRY, { fillLevel: { metal: 3 } }).fillLevel).toEqual({ plastic: null, metal: 3 });
  });

  test('null is omitted, except errorCode: null, which clears the error', () => {
    const nulls = mergeTelemetry(stored, { fillLevel: { plastic: null }, firmwareVersion: null });
    expect(nulls).toEqual(stored);
    expect(mergeTelemetry(stored, { errorCode: null })).toEqual({ ...stored, errorCode: null });
    expect(mergeTelemetry(stored, {})).toEqual(stored);
    expect(mergeTelemetry(stored, { firmwareVersion: '2.5.0', errorCode: 'E7' })).toEqual({
      ...stored,
      firmwareVersion: '2.5.0',
      errorCode: 'E7',
    });
  });

  test('a report carries telemetry when it names a field, errorCode: null included', () => {
    expect(reportsTelemetry({})).toBe(false);
    expect(reportsTelemetry({ fillLevel: null, firmwareVersion: null })).toBe(false);
    expect(reportsTelemetry({ fillLevel: {} })).toBe(true);
    expect(reportsTelemetry({ firmwareVersion: '1' })).toBe(true);
    expect(reportsTelemetry({ errorCode: null })).toBe(true);
  });
});

describe('alert conditions', () => {
  const telemetry = (plastic: number | null, metal: number | null, errorCode: string | null = null): Telemetry => ({
    fillLevel: { plastic, metal },
    firmwareVersion: null,
    errorCode,
  });

  test('bin-full holds at or above the threshold, for either bin, naming the full ones', () => {
    expect(telemetryConditions(telemetry(89, 10), 90)).toEqual({});
    expect(telemetryConditions(telemetry(90, 10), 90)).toEqual({ 'bin-full': 'Bin full: plastic 90% (alert at 90%)' });
    expect(telemetryConditions(telemetry(95, 100), 90)).toEqual({
      'bin-full': 'Bin full: plastic 95%, metal 100% (alert at 90%)',
    });
    expect(telemetryConditions(telemetry(null, null), 1)).toEqual({});
  });

  test('error holds while an error code is set', () => {
    expect(telemetryConditions(telemetry(0, 0, 'JAM-3'), 90)).toEqual({ error: 'Error code JAM-3' });
  });

  test('silent describes when the kiosk was last seen', () => {
    expect(silentConditions({ status: 'available', lastSeenAt: ago(20 * MINUTE) }, NOW, 15)).toEqual({
      silent: 'Not seen since 2026-11-23T09:40:00.000Z (over 15 minutes)',
    });
    expect(silentConditions({ status: 'available', lastSeenAt: null }, NOW, 15)).toEqual({});
  });

  test('transitions: open what holds and is not open, resolve what is open and no longer holds, among the judged', () => {
    const holding: Conditions = { 'bin-full': 'full', error: 'E1' };
    expect(alertTransitions({}, holding, ['bin-full', 'error'])).toEqual({
      open: [
        { kind: 'bin-full', detail: 'full' },
        { kind: 'error', detail: 'E1' },
      ],
      resolve: [],
    });
    expect(alertTransitions({ 'bin-full': 'a1', error: 'a2' }, holding, ['bin-full', 'error'])).toEqual({
      open: [],
      resolve: [],
    });
    expect(alertTransitions({ 'bin-full': 'a1', silent: 'a3' }, {}, ['bin-full', 'error'])).toEqual({
      open: [],
      resolve: [{ kind: 'bin-full', alertId: 'a1' }],
    });
    expect(alertTransitions({ silent: 'a3' }, {}, ['silent'])).toEqual({
      open: [],
      resolve: [{ kind: 'silent', alertId: 'a3' }],
    });
  });

  test('an opened alert is pushed to the operators topic with what it is about', () => {
    expect(OPERATORS_TOPIC).toBe('operators');
    expect(alertNotification({ id: 'a1', kioskId: 'k1', kind: 'bin-full', detail: 'Bin full: metal 93%' })).toEqual({
      title: 'Kiosk k1: bin full',
      body: 'Bin full: metal 93%',
      data: { type: 'alert', alertId: 'a1', kioskId: 'k1', kind: 'bin-full' },
    });
  });
});

describe('alert paging', () => {
  test('defaults: the open alerts, 50 a page, from the start', () => {
    expect(alertPageRequest({})).toEqual({ state: 'open', limit: 50, after: undefined });
    expect(alertPageRequest({ state: 'all', limit: '100' })).toEqual({ state: 'all', limit: 100, after: undefined });
  });

  test.each<[Record<string, string>, string]>([
    [{ state: 'closed' }, 'state must be one of open, all'],
    [{ state: '' }, 'state must be one of open, all'],
    ...['0', '101', '1.5', '', ' 5', '1e2', '-1', '0x10', '0010'].map((limit): [Record<string, string>, string] => [
      { limit },
      'limit must be an integer from 1 to 100',
    ]),
    [{ cursor: 'nope' }, 'cursor is not a cursor this service handed out'],
    [{ cursor: '' }, 'cursor is not a cursor this service handed out'],
  ])('%p: 400 %p', (given, message) => {
    const error = apiErrorOf(() => alertPageRequest(given));
    expect([error.status, error.message]).toEqual([400, message]);
  });

  test('a cursor names the position it was made from, and only cursors made here are taken', () => {
    const position = { seconds: 1_795_000_000, nanoseconds: 123_000_000, id: 'Hq2f8Xk1sW0bZ3pL9aYc' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
    expect(alertPageRequest({ cursor }).after).toEqual(position);
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    for (const bad of ['1.2', '1.2./', '1.2.__x__', 'a.2.id', '1.1234567890.id', '1.2.a/b', '253402300800.0.id']) {
      expect(decodeCursor(forged(bad))).toBeUndefined();
    }
    expect(decodeCursor(`${cursor}=`)).toBeUndefined();
    expect(decodeCursor(forged('-62135596800.0.id'))).toEqual({ seconds: -62_135_596_800, nanoseconds: 0, id: 'id' });
  });
});
