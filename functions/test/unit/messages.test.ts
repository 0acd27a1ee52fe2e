import { otpMail, reservedDataKeys, transactionNotification, type TransactionSummary } from '../../src/domain/messages';

const summary: TransactionSummary = {
  transactionId: 'tx-123',
  kioskId: 'kiosk-berlin-1',
  kioskName: 'Alexanderplatz',
  totalItems: 5,
  pointsEarned: 70,
  newBalance: 1270,
};

describe('transactionNotification', () => {
  test('title names the points earned, body the items, kiosk and new balance', () => {
    const { title, body } = transactionNotification(summary);
    expect(title).toBe('You earned 70 points');
    expect(body).toBe('Thanks for recycling 5 items at Alexanderplatz. Your balance is now 1270 points.');
  });

  test('singular for exactly one', () => {
    const { title, body } = transactionNotification({ ...summary, totalItems: 1, pointsEarned: 1, newBalance: 1 });
    expect(title).toBe('You earned 1 point');
    expect(body).toContain('recycling 1 item at');
    expect(body).toContain('now 1 point.');
    expect(body).not.toMatch(/points|items/);
  });

  test('plural for zero', () => {
    const { title, body } = transactionNotification({ ...summary, totalItems: 0, pointsEarned: 0, newBalance: 0 });
    expect(title).toBe('You earned 0 points');
    expect(body).toContain('0 items');
    expect(body).toContain('now 0 points.');
  });

  test('data carries the type, ids and numbers, every value a string', () => {
    const { data } = transactionNotification(summary);
    expect(data).toStrictEqual({
      type: 'transaction',
      transactionId: 'tx-123',
      kioskId: 'kiosk-berlin-1',
      pointsEarned: '70',
      newBalance: '1270',
    });
    for (const value of Object.values(data)) expect(typeof value).toBe('string');
  });

  test('data keys are not reserved by the push provider', () => {
    expect(reservedDataKeys(transactionNotification(summary).data)).toEqual([]);
  });
});

describe('reservedDataKeys', () => {
  test.each([
    ['from'],
    ['notification'],
    ['message_type'],
    ['collapse_key'],
    ['FROM'],
    ['Notification'],
    ['google'],
    ['google.c.a.e'],
    ['googleFoo'],
    ['GOOGLE_x'],
    ['gcm'],
    ['gcm.notification.title'],
    ['GcmSomething'],
  ])('%p is reserved', (key) => {
    expect(reservedDataKeys({ [key]: 'x' })).toEqual([key]);
  });

  test.each([
    ['type'],
    ['transactionId'],
    ['fromKiosk'],
    ['sender_from'],
    ['notifications'],
    ['my_notification'],
    ['message_type2'],
    ['collapse'],
    ['mygoogle'],
    ['x-gcm'],
    ['campaign'],
  ])('%p is allowed', (key) => {
    expect(reservedDataKeys({ [key]: 'x' })).toEqual([]);
  });

  test('lists every reserved key in a mixed payload, in order', () => {
    expect(reservedDataKeys({ type: 'a', from: 'b', campaign: 'c', gcm_x: 'd', google_y: 'e' })).toEqual([
      'from',
      'gcm_x',
      'google_y',
    ]);
  });

  test('no payload has no reserved keys', () => {
    expect(reservedDataKeys(undefined)).toEqual([]);
    expect(reservedDataKeys(null)).toEqual([]);
    expect(reservedDataKeys({})).toEqual([]);
  });
});

describe('otpMail', () => {
  const expectInTextAndHtml = (mail: ReturnType<typeof otpMail>, ...parts: string[]) => {
    for (const part of parts) {
      expect(mail.text).toContain(part);
      expect(mail.html).toContain(part);
    }
  };

  test('text and html contain the code and the validity', () => {
    const mail = otpMail('482913', 10);
    expect(mail.subject).toContain('verification code');
    expectInTextAndHtml(mail, '482913', 'valid for 10 minutes');
    expect(mail.html).toMatch(/^<p>/);
  });

  test('another code and validity appear as given', () => {
    const mail = otpMail('0042', 3);
    expect(mail.text).toContain('code is 0042.');
    expect(mail.html).toContain('>0042</strong>');
    expectInTextAndHtml(mail, 'valid for 3 minutes');
    expect(mail.text).not.toContain('482913');
  });
});
