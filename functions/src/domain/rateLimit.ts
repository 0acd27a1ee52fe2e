/** Sliding-window limits: a bucket remembers when each counted event happened. */
export interface Hit {
  id: string;
  at: number;
}

export interface WindowVerdict {
  allowed: boolean;
  /** Hits still inside the window (the ones worth keeping). */
  live: Hit[];
  /** Seconds until the oldest live hit leaves the window; 0 when allowed. */
  retryAfterSeconds: number;
}

export function judgeWindow(hits: Hit[], limit: number, windowMs: number, now: number): WindowVerdict {
  const live = hits.filter((hit) => hit.at > now - windowMs).sort((a, b) => a.at - b.at);
  if (live.length < limit) return { allowed: true, live, retryAfterSeconds: 0 };
  // A limit of 0 closes the door for a whole window.
  if (limit <= 0) return { allowed: false, live, retryAfterSeconds: Math.max(1, Math.ceil(windowMs / 1000)) };
  const oldestThatMustExpire = live[live.length - limit];
  return {
    allowed: false,
    live,
    retryAfterSeconds: Math.max(1, Math.ceil((oldestThatMustExpire.at + windowMs - now) / 1000)),
  };
}
