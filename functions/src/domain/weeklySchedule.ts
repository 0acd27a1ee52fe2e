/*
 * Nearly every kiosk has a plain weekly schedule ("Mo-Fr 08:00-20:00; Sa 09:00-14:00",
 * "24/7"). Evaluating those needs no library: opening_hours costs a cold instance
 * ~70 ms to load and ~50 ms to parse its first schedule (it compiles regexes per
 * token), which is most of what a cold GET /kiosk/{id} pays over its floor. This
 * module reads only that plain form and answers `undefined` for anything else
 * (sunrise, holidays, months, week numbers, times past midnight, lowercase or
 * unpadded spellings...), which the caller hands to opening_hours. A property test
 * (test/unit/weekly-schedule.test.ts) checks that on every string this accepts,
 * opening_hours accepts it too and agrees at every instant.
 */

const SECONDS_PER_DAY = 24 * 60 * 60;

/** Index = JavaScript's getDay(): 0 is Sunday. */
const WEEKDAY_INDEX: Readonly<Record<string, number>> = { Su: 0, Mo: 1, Tu: 2, We: 3, Th: 4, Fr: 5, Sa: 6 };

/** Open intervals per weekday (index 0 = Sunday), in seconds of the day, end exclusive. */
export type WeeklySchedule = ReadonlyArray<ReadonlyArray<readonly [number, number]>>;

const DAY = '(?:Mo|Tu|We|Th|Fr|Sa|Su)';
const DAY_SPEC = `${DAY}(?:-${DAY})?`;
const RANGE = '\\d\\d:\\d\\d-\\d\\d:\\d\\d';
const RULE = new RegExp(`^(?:(${DAY_SPEC}(?:,${DAY_SPEC})*) )?(${RANGE}(?:,${RANGE})*|off|closed|24/7)$`);

function weekdaysOf(selector: string): number[] | undefined {
  const days = new Set<number>();
  for (const spec of selector.split(',')) {
    const [from, to = from] = spec.split('-').map((name) => WEEKDAY_INDEX[name]);
    // "Mo-Mo" reads as a whole week wrapping round to opening_hours; leave it to it.
    if (spec.includes('-') && from === to) return undefined;
    for (let day = from; ; day = (day + 1) % 7) {
      days.add(day);
      if (day === to) break;
    }
  }
  return [...days];
}

/** "HH:MM" as seconds of the day; `undefined` unless 00:00-23:59, or 24:00 when allowed. */
function secondsOf(clock: string, allowMidnightEnd: boolean): number | undefined {
  const hours = Number(clock.slice(0, 2));
  const minutes = Number(clock.slice(3, 5));
  if (minutes > 59) return undefined;
  if (hours > 23 && !(allowMidnightEnd && hours === 24 && minutes === 0)) return undefined;
  return (hours * 60 + minutes) * 60;
}

function intervalsOf(times: string): Array<readonly [number, number]> | undefined {
  if (times === 'off' || times === 'closed') return [];
  if (times === '24/7') return [[0, SECONDS_PER_DAY]];
  const intervals: Array<readonly [number, number]> = [];
  for (const range of times.split(',')) {
    const start = secondsOf(range.slice(0, 5), false);
    const end = secondsOf(range.slice(6, 11), true);
    // An end at or before the start runs past midnight into the next day.
    if (start === undefined || end === undefined || end <= start) return undefined;
    intervals.push([start, end]);
  }
  return intervals;
}

/**
 * The schedule if `openingHours` is in the plain weekly form, else `undefined`.
 * Rules apply in order and a later rule replaces the hours of the days it names,
 * as in opening_hours ("Mo-Fr 08:00-20:00; We off" closes Wednesdays); only the
 * first rule may leave out the days, and then means every day.
 */
export function parseWeeklySchedule(openingHours: string): WeeklySchedule | undefined {
  const week: Array<ReadonlyArray<readonly [number, number]>> = Array.from({ length: 7 }, () => []);
  for (const [position, rule] of openingHours.split('; ').entries()) {
    const match = RULE.exec(rule);
    if (!match) return undefined;
    const [, selector, times] = match;
    if (times === '24/7' && selector !== undefined) return undefined;
    // After the first rule, opening_hours adds a rule without days to the earlier
    // ones instead of replacing them; left to it.
    if (selector === undefined && position > 0) return undefined;
    const days = selector === undefined ? [0, 1, 2, 3, 4, 5, 6] : weekdaysOf(selector);
    const intervals = intervalsOf(times);
    if (!days || !intervals) return undefined;
    for (const day of days) week[day] = intervals;
  }
  return week;
}

export function isOpenInWeek(schedule: WeeklySchedule, weekday: number, secondOfDay: number): boolean {
  return schedule[weekday].some(([start, end]) => secondOfDay >= start && secondOfDay < end);
}
