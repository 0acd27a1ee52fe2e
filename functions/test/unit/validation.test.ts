import { MAX_PUSH_TOKEN_LENGTH, bodySchemas, type BodySchemaName } from '../../src/model/requestBodies';
import { validateBody } from '../../src/http/validation';
import { ApiError } from '../../src/errors';
import { errorAnswerOf, type ErrorAnswer } from '../../src/http/errorAnswers';

type Body = Record<string, unknown>;

function errorFor(name: BodySchemaName, body: unknown): ErrorAnswer {
  try {
    validateBody(name, body);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = errorAnswerOf(error as ApiError);
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe('invalid-argument');
    return apiError;
  }
  throw new Error(`expected ${name} to reject ${JSON.stringify(body)}`);
}

const messageFor = (name: BodySchemaName, body: unknown): string => errorFor(name, body).message;

interface SchemaCase {
  valid: Body;
  /** Another valid body, using the optional fields. */
  full: Body;
  required: string[];
  /** A field and a value of the wrong JSON type for it. */
  wrongType: [string, unknown];
}

const cases: Record<BodySchemaName, SchemaCase> = {
  kioskStatusBody: {
    valid: { status: 'maintenance' },
    full: { status: 'offline', fillLevel: { plastic: 100, metal: 0 }, firmwareVersion: 'v2.4.1 (rc)', errorCode: '~' },
    required: ['status'],
    wrongType: ['status', 1],
  },
  transactionBody: {
    valid: { kioskId: 'kiosk-1', userId: 'user-1', plasticCount: 3, metalCount: 2 },
    full: {
      kioskId: 'kiosk-1',
      userId: null,
      plasticCount: 0,
      metalCount: 1000,
      occurredAt: '2026-11-23T09:30:00Z',
    },
    required: ['kioskId', 'userId', 'plasticCount', 'metalCount'],
    wrongType: ['plasticCount', '3'],
  },
  transactionBatchBody: {
    valid: { transactions: [{}] },
    full: { transactions: Array.from({ length: 100 }, () => ({ anything: 'checked item by item' })) },
    required: ['transactions'],
    wrongType: ['transactions', { kioskId: 'kiosk-1' }],
  },
  transactionBatchItem: {
    valid: { kioskId: 'kiosk-1', userId: 'user-1', plasticCount: 3, metalCount: 2, idempotencyKey: 'r-1' },
    full: {
      kioskId: 'kiosk-1',
      userId: 'user-1',
      plasticCount: 0,
      metalCount: 1000,
      occurredAt: '2026-11-21T16:04:10.123+01:00',
      idempotencyKey: 'k'.repeat(255),
    },
    required: ['kioskId', 'userId', 'plasticCount', 'metalCount', 'idempotencyKey'],
    wrongType: ['occurredAt', 1763737450],
  },
  notifyTopicBody: {
    valid: { topic: 'news', title: 'Hello', body: 'Double points today' },
    full: { topic: 'news', title: 'Hello', body: 'Double points today', data: { campaign: 'spring' } },
    required: ['topic', 'title', 'body'],
    wrongType: ['title', ['Hello']],
  },
  notifyUserBody: {
    valid: { userId: 'user-1', title: 'Hello', body: 'Thanks' },
    full: { pushToken: 'device-token', title: 'Hello', body: 'Thanks', data: { screen: 'wallet' } },
    required: ['title', 'body'],
    wrongType: ['userId', 42],
  },
  otpEmailBody: {
    valid: { email: 'someone@example.com', otp: '123456' },
    full: { email: 'first.last+tag@mail.example.org', otp: '0123456789' },
    required: ['email', 'otp'],
    wrongType: ['otp', 123456],
  },
  pushTokenBody: {
    valid: { token: 'device-token' },
    full: { token: 't'.repeat(MAX_PUSH_TOKEN_LENGTH) },
    required: ['token'],
    wrongType: ['token', { value: 'x' }],
  },
  adminKioskBody: {
    valid: {
      id: 'kiosk-1',
      name: 'Main Street',
      address: '1 Main Street',
      location: { latitude: 52.5, longitude: 13.4 },
    },
    full: {
      id: 'kiosk-1',
      name: 'Main Street',
      address: '1 Main Street',
      location: { latitude: -90, longitude: 180 },
      openingHours: 'Mo-Fr 08:00-20:00',
      timezone: 'Europe/Berlin',
      status: 'available',
    },
    required: ['id', 'name', 'address', 'location'],
    wrongType: ['location', 'Berlin'],
  },
  kioskKeyBody: {
    valid: {},
    full: { label: 'front door' },
    required: [],
    wrongType: ['label', false],
  },
  adjustmentBody: {
    valid: { points: -200, reason: 'Counted twice' },
    full: { points: 100_000, reason: 'r'.repeat(200) },
    required: ['points', 'reason'],
    wrongType: ['points', '5'],
  },
  adminRewardBody: {
    valid: { id: 'coffee', name: 'Coffee', cost: 1, kind: 'donation' },
    full: {
      id: 'coffee',
      name: 'Coffee',
      description: 'One cup',
      cost: 1_000_000,
      kind: 'voucher',
      stock: 0,
      partnerId: 'kaffee-alex',
      validDays: 730,
      active: false,
    },
    required: ['id', 'name', 'cost', 'kind'],
    wrongType: ['cost', '500'],
  },
  redeemBody: {
    valid: { rewardId: 'coffee' },
    full: { rewardId: 'x'.repeat(128) },
    required: ['rewardId'],
    wrongType: ['rewardId', 7],
  },
  cancelRedemptionBody: {
    valid: { reason: 'r' },
    full: { reason: 'x'.repeat(200) },
    required: ['reason'],
    wrongType: ['reason', null],
  },
  // Webhooks (contract §13).
  webhookBody: {
    valid: { url: 'https://hooks.example.com/kiosk', events: ['transaction.awarded'] },
    full: { url: 'https://hooks.example.com/kiosk', events: ['alert.opened', 'alert.resolved'], description: 'Ops' },
    required: ['url', 'events'],
    wrongType: ['events', 'alert.opened'],
  },
  // Partners (§12).
  partnerBody: {
    valid: { id: 'kaffee-alex', name: 'Kaffee Alex' },
    full: { id: 'kaffee-alex', name: 'x'.repeat(200) },
    required: ['id', 'name'],
    wrongType: ['name', 7],
  },
  promotionBody: {
    valid: { id: 'weekend-double', name: 'Double points', multiplier: 2 },
    full: {
      id: 'weekend-double',
      name: 'x'.repeat(100),
      active: false,
      startsAt: '2026-11-21T00:00:00Z',
      endsAt: '2026-11-23T00:00:00+01:00',
      hours: 'Sa,Su 00:00-24:00',
      kioskIds: ['alex', 'zoo'],
      minItems: 1000,
      multiplier: 10,
      bonusPoints: null,
      budgetPoints: 100_000_000,
    },
    required: ['id', 'name'],
    wrongType: ['multiplier', '2'],
  },
  simulateBody: {
    valid: { kioskId: 'alex', plasticCount: 3, metalCount: 0 },
    full: { kioskId: 'alex', userId: 'u1', plasticCount: 3, metalCount: 1000, occurredAt: '2026-11-21T10:00:00Z' },
    required: ['kioskId', 'plasticCount', 'metalCount'],
    wrongType: ['plasticCount', 1.5],
  },
  // Trust (contract §17).
  holdDecisionBody: {
    valid: { reason: 'r' },
    full: { reason: 'x'.repeat(200) },
    required: ['reason'],
    wrongType: ['reason', null],
  },
  suspensionBody: {
    valid: { reason: 'r' },
    full: { reason: 'x'.repeat(200) },
    required: ['reason'],
    wrongType: ['reason', 3],
  },
  claimBody: {
    valid: { code: '7K3QM9XWD2HT' },
    full: { code: ' 7k3q-m9xw d2ht ' },
    required: ['code'],
    wrongType: ['code', 7],
  },
};

describe('every body schema', () => {
  test('has a test case, and every case a schema', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(bodySchemas).sort());
  });

  describe.each(Object.keys(cases) as BodySchemaName[])('%s', (name) => {
    const { valid, full, required, wrongType } = cases[name];

    test('accepts a valid body and returns it unchanged', () => {
      expect(validateBody(name, valid)).toBe(valid);
      expect(validateBody(name, full)).toBe(full);
      expect(validateBody(name, full)).toEqual(full);
    });

    if (required.length > 0) {
      test.each(required)('without %s: "<field> is required"', (field) => {
        const body = { ...valid };
        delete body[field];
        expect(messageFor(name, body)).toBe(`${field} is required`);
      });
    }

    test('an unknown field: "<field> is not a known field"', () => {
      expect(messageFor(name, { ...valid, sneaky: true })).toBe('sneaky is not a known field');
    });

    test('a wrong type names the field', () => {
      const [field, value] = wrongType;
      expect(messageFor(name, { ...valid, [field]: value })).toMatch(new RegExp(`^${field} must be `));
    });

    test.each([[[]], [null], ['x'], [42], [undefined]])('a non-object body (%p) is refused', (body) => {
      expect(messageFor(name, body)).toBe('request body must be a JSON object');
    });
  });
});

describe('transactionBody', () => {
  const valid = cases.transactionBody.valid;

  test.each([[1001], [-1], [1.5]])('plasticCount %p is refused, naming plasticCount', (plasticCount) => {
    expect(messageFor('transactionBody', { ...valid, plasticCount })).toMatch(/^plasticCount /);
  });

  test('the bounds are stated', () => {
    expect(messageFor('transactionBody', { ...valid, plasticCount: 1001 })).toBe('plasticCount must be <= 1000');
    expect(messageFor('transactionBody', { ...valid, metalCount: -1 })).toBe('metalCount must be >= 0');
    expect(messageFor('transactionBody', { ...valid, metalCount: 2.5 })).toBe('metalCount must be integer');
  });

  test('numbers are not coerced from strings, nor booleans', () => {
    expect(messageFor('transactionBody', { ...valid, metalCount: '2' })).toBe('metalCount must be integer');
    expect(messageFor('transactionBody', { ...valid, metalCount: true })).toBe('metalCount must be integer');
  });

  test('ids must be 1-128 characters', () => {
    expect(messageFor('transactionBody', { ...valid, kioskId: '' })).toMatch(/^kioskId /);
    expect(messageFor('transactionBody', { ...valid, userId: 'u'.repeat(129) })).toMatch(/^userId /);
    expect(validateBody('transactionBody', { ...valid, userId: 'u'.repeat(128) })).toBeDefined();
  });
});

describe('occurredAt', () => {
  const valid = cases.transactionBody.valid;

  test.each([
    ['2026-11-23T09:30:00Z'],
    ['2026-11-23T10:30:00+01:00'],
    ['2026-11-23t09:30:00.123456z'],
    ['2026-11-22T23:30:00-09:30'],
  ])('%p: an RFC 3339 date-time with an offset is accepted', (occurredAt) => {
    expect(validateBody('transactionBody', { ...valid, occurredAt })).toEqual({ ...valid, occurredAt });
  });

  test.each([
    ['2026-11-23T09:30:00'],
    ['2026-11-23'],
    ['2026-13-01T00:00:00Z'],
    ['2026-11-23T25:00:00Z'],
    ['yesterday'],
    [''],
  ])('%p is refused, naming occurredAt and the form it takes', (occurredAt) => {
    expect(messageFor('transactionBody', { ...valid, occurredAt })).toBe(
      'occurredAt must be an RFC 3339 date-time with an offset, e.g. 2026-11-23T09:30:00Z',
    );
  });
});

describe('null and keys, alone and in a batch', () => {
  const single = cases.transactionBody.valid;
  const item = cases.transactionBatchItem.valid;

  test.each([
    ['transactionBody', single],
    ['transactionBatchItem', item],
  ] as const)('%s: occurredAt null is refused, naming occurredAt', (schema, body) => {
    expect(messageFor(schema, { ...body, occurredAt: null })).toBe('occurredAt must be string');
  });

  test.each([['café-1'], ['receipt 1'], ['receipt\u007f']])(
    'a batch item keyed %p is refused, naming idempotencyKey as the header names Idempotency-Key',
    (idempotencyKey) => {
      expect(messageFor('transactionBatchItem', { ...item, idempotencyKey })).toBe(
        'idempotencyKey must be 1-255 visible ASCII characters (0x21-0x7E)',
      );
    },
  );
});

describe('transactionBatchBody', () => {
  test('1-100 items', () => {
    expect(messageFor('transactionBatchBody', { transactions: [] })).toBe(
      'transactions must NOT have fewer than 1 items',
    );
    expect(messageFor('transactionBatchBody', { transactions: Array.from({ length: 101 }, () => ({})) })).toBe(
      'transactions must NOT have more than 100 items',
    );
  });

  test.each([[null], ['receipt'], [[{}]], [7]])('an item that is not an object (%p) fails the batch', (item) => {
    expect(messageFor('transactionBatchBody', { transactions: [{}, item] })).toBe('transactions.1 must be object');
  });
});

describe('kioskStatusBody', () => {
  test('an unknown status lists the allowed ones', () => {
    expect(messageFor('kioskStatusBody', { status: 'broken' })).toBe(
      'status must be one of available, maintenance, offline',
    );
  });

  test.each([
    [{ fillLevel: { plastic: 101 } }, 'fillLevel.plastic must be <= 100'],
    [{ fillLevel: { metal: -1 } }, 'fillLevel.metal must be >= 0'],
    [{ fillLevel: { metal: 50.5 } }, 'fillLevel.metal must be integer'],
    [{ fillLevel: { glass: 10 } }, 'fillLevel.glass is not a known field'],
    [{ fillLevel: 90 }, 'fillLevel must be object'],
    [{ firmwareVersion: '' }, 'firmwareVersion must NOT have fewer than 1 characters'],
    [{ firmwareVersion: 'v'.repeat(65) }, 'firmwareVersion must NOT have more than 64 characters'],
    [{ firmwareVersion: 'v2\n' }, 'firmwareVersion must be printable ASCII characters'],
    [{ errorCode: 'Fehler ü' }, 'errorCode must be printable ASCII characters'],
    [{ errorCode: 42 }, 'errorCode must be string'],
  ])('telemetry %p: %p', (telemetry, message) => {
    expect(messageFor('kioskStatusBody', { status: 'available', ...telemetry })).toBe(message);
  });

  test('telemetry is optional, each bin on its own, and null is taken (errorCode: null clears)', () => {
    for (const body of [
      { status: 'available', fillLevel: { metal: 0 } },
      { status: 'available', fillLevel: {} },
      { status: 'available', fillLevel: null, firmwareVersion: null, errorCode: null },
      { status: 'available', fillLevel: { plastic: null, metal: 100 }, firmwareVersion: ' ', errorCode: 'E-42' },
    ]) {
      expect(validateBody('kioskStatusBody', body)).toEqual(body);
    }
  });
});

describe('otpEmailBody', () => {
  const valid = cases.otpEmailBody.valid;

  test.each([['12ab'], ['123'], ['12345678901'], [' 1234'], ['']])('otp %p: "otp must be 4-10 digits"', (otp) => {
    expect(messageFor('otpEmailBody', { ...valid, otp })).toBe('otp must be 4-10 digits');
  });

  test.each([['1234'], ['0000000000']])('otp %p is accepted', (otp) => {
    expect(validateBody('otpEmailBody', { ...valid, otp })).toEqual({ ...valid, otp });
  });

  test.each([['not-an-email'], ['@example.com'], ['a@'], ['']])('email %p is refused, naming email', (email) => {
    expect(messageFor('otpEmailBody', { ...valid, email })).toMatch(/^email /);
  });

  test('the format is named', () => {
    expect(messageFor('otpEmailBody', { ...valid, email: 'not-an-email' })).toBe('email must be a valid email');
  });
});

describe('notification data', () => {
  const valid = cases.notifyTopicBody.valid;

  test('a non-string value is refused, naming data', () => {
    expect(messageFor('notifyTopicBody', { ...valid, data: { campaign: 1 } })).toBe('data.campaign must be string');
    expect(messageFor('notifyUserBody', { ...cases.notifyUserBody.valid, data: { flag: true } })).toMatch(/^data\./);
    expect(messageFor('notifyTopicBody', { ...valid, data: { nested: { a: 'b' } } })).toMatch(/^data\.nested /);
  });

  test('data must be an object', () => {
    expect(messageFor('notifyTopicBody', { ...valid, data: 'campaign=spring' })).toMatch(/^data /);
    expect(messageFor('notifyTopicBody', { ...valid, data: ['a'] })).toMatch(/^data /);
  });

  test('an empty key is refused, naming data', () => {
    expect(messageFor('notifyTopicBody', { ...valid, data: { '': 'x' } })).toMatch(/^data /);
  });

  test('at most 50 entries', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect(validateBody('notifyTopicBody', { ...valid, data: fifty })).toBeDefined();
    const fiftyOne = { ...fifty, k50: 'v' };
    expect(messageFor('notifyTopicBody', { ...valid, data: fiftyOne })).toMatch(/^data /);
  });

  test('a value longer than 1000 characters is refused', () => {
    expect(messageFor('notifyTopicBody', { ...valid, data: { a: 'x'.repeat(1001) } })).toMatch(/^data\.a /);
  });
});

describe('adminKioskBody', () => {
  const valid = cases.adminKioskBody.valid;

  test('latitude 91 is refused, naming location.latitude', () => {
    expect(messageFor('adminKioskBody', { ...valid, location: { latitude: 91, longitude: 0 } })).toBe(
      'location.latitude must be <= 90',
    );
  });

  test('longitude -181 is refused, naming location.longitude', () => {
    expect(messageFor('adminKioskBody', { ...valid, location: { latitude: 0, longitude: -181 } })).toBe(
      'location.longitude must be >= -180',
    );
  });

  test('nested required and unknown fields are named with their path', () => {
    expect(messageFor('adminKioskBody', { ...valid, location: { latitude: 1 } })).toBe(
      'location.longitude is required',
    );
    expect(messageFor('adminKioskBody', { ...valid, location: { latitude: 1, longitude: 2, altitude: 3 } })).toBe(
      'location.altitude is not a known field',
    );
    expect(messageFor('adminKioskBody', { ...valid, location: { latitude: '1', longitude: 2 } })).toBe(
      'location.latitude must be number',
    );
  });

  test('an unknown status is refused', () => {
    expect(messageFor('adminKioskBody', { ...valid, status: 'closed' })).toMatch(/^status must be one of /);
  });
});

describe('text Firestore cannot store or query (found by the fuzzer)', () => {
  const reject = (name: BodySchemaName, body: unknown, message: string) => {
    expect(() => validateBody(name, body)).toThrow(message);
  };

  test('lone UTF-16 surrogates anywhere in a body: 400 naming the field', () => {
    reject(
      'transactionBody',
      { kioskId: 'k', userId: '\ud800', plasticCount: 1, metalCount: 0 },
      'userId must be valid Unicode text',
    );
    reject('kioskKeyBody', { label: 'a\udfff' }, 'label must be valid Unicode text');
    reject(
      'notifyTopicBody',
      { topic: 'all_users', title: 't', body: 'b', data: { type: 'x\udc00' } },
      'data.type must be valid Unicode text',
    );
    expect(validateBody('kioskKeyBody', { label: 'emoji 🚲 fine' })).toEqual({ label: 'emoji 🚲 fine' });
  });

  test('push tokens: printable ASCII up to 1024 characters', () => {
    reject('pushTokenBody', { token: 'has space' }, 'token must be printable ASCII characters without spaces');
    reject(
      'pushTokenBody',
      { token: 'x'.repeat(MAX_PUSH_TOKEN_LENGTH + 1) },
      'token must NOT have more than 1024 characters',
    );
    reject(
      'notifyUserBody',
      { pushToken: 'tøken', title: 't', body: 'b' },
      'pushToken must be printable ASCII characters',
    );
  });

  test('data keys: letters, digits, "_" and "-", starting with a letter', () => {
    for (const key of ['__x__', '', '1abc', 'a.b', 'a'.repeat(101)]) {
      reject(
        'notifyTopicBody',
        { topic: 'all_users', title: 't', body: 'b', data: { [key]: 'v' } },
        'data has an invalid key',
      );
    }
    expect(
      validateBody('notifyTopicBody', {
        topic: 'all_users',
        title: 't',
        body: 'b',
        data: { screen_id: 'v', 'x-y': 'w' },
      }),
    ).toBeTruthy();
  });
});

describe('adjustmentBody', () => {
  test.each([
    [{ points: 0, reason: 'r' }, 'points must not be 0'],
    [{ points: 100_001, reason: 'r' }, 'points must be <= 100000'],
    [{ points: -100_001, reason: 'r' }, 'points must be >= -100000'],
    [{ points: 1.5, reason: 'r' }, 'points must be integer'],
    [{ points: 1, reason: '' }, 'reason must NOT have fewer than 1 characters'],
    [{ points: 1, reason: 'r'.repeat(201) }, 'reason must NOT have more than 200 characters'],
    [{ points: 1, reason: ' \t\n' }, 'reason must contain a character other than white space'],
  ])('%j: %s', (body, message) => {
    expect(messageFor('adjustmentBody', body)).toBe(message);
  });

  test('±100,000 and a reason of 200 characters (one emoji is one) pass', () => {
    expect(validateBody('adjustmentBody', { points: -100_000, reason: '🚲'.repeat(200) })).toBeTruthy();
  });
});
