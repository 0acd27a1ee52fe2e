// A kiosk submitting a transaction: with an Idempotency-Key, and sending the same
// request again with the same key until it gets an answer.

export interface KioskSubmission {
  apiKey: string;
  idempotencyKey: string;
  body: unknown;
}

export interface KioskAnswer {
  status: number;
  /** Parsed JSON (undefined if the body is not JSON); loosely typed, as each caller checks the shape it expects. */
  body: any;
  attempts: number;
}

export interface RetryPolicy {
  /** Sends at most this many times; after the last, its response is the answer (a connection error is thrown). */
  attempts: number;
  /** The pause after attempt number `attempt` (1, 2, ...). */
  pauseMs: (attempt: number) => number;
  /** Whether a status is an answer; anything else is sent again, as is a broken connection. */
  isAnswer: (status: number) => boolean;
}

/** A kiosk's own rule: a 5xx or a broken connection is sent again, 10 times at most, waiting 250 ms longer each time. */
export const KIOSK_RETRIES: RetryPolicy = {
  attempts: 10,
  pauseMs: (attempt) => 250 * attempt,
  isAnswer: (status) => status < 500,
};

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * POST /kiosk/transaction of `api` as a kiosk sends it. `onResponse` sees every
 * response (its status, body text and time from send to body), retries included.
 */
export async function submitAsKiosk(
  api: string,
  { apiKey, idempotencyKey, body }: KioskSubmission,
  policy: RetryPolicy = KIOSK_RETRIES,
  onResponse?: (status: number, text: string, ms: number) => void,
): Promise<KioskAnswer> {
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    try {
      const response = await fetch(`${api}/kiosk/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      onResponse?.(response.status, text, performance.now() - started);
      if (policy.isAnswer(response.status) || attempt >= policy.attempts) {
        return { status: response.status, body: parseJson(text), attempts: attempt };
      }
    } catch (error) {
      if (attempt >= policy.attempts) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, policy.pauseMs(attempt)));
  }
}
