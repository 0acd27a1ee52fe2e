/** rewards:set, rewards:show: config/rewards, checked by the same rules the service reads it with. */
import { FieldValue } from 'firebase-admin/firestore';
import { rewardsConfigRef } from '../../data/rewardsConfig';
import { parseRewardsConfig, utcDay, type RewardsConfigProblems } from '../../domain/rewards';
import { MAX_EXPIRE_AFTER_MONTHS, MIN_EXPIRE_AFTER_MONTHS, notBeforeAfterChange } from '../../domain/pointsExpiry';
import { numberOrText } from '../args';
import { note, printJson, type Command } from '../command';
import { CliError } from '../errors';

/** The stored config and what applies: each field's default where the document is absent or the field invalid. */
export async function storedRewards(): Promise<{ raw: Record<string, unknown> | undefined } & RewardsConfigProblems> {
  const raw = (await rewardsConfigRef().get()).data();
  return { raw, ...parseRewardsConfig(raw) };
}

/** "Bronze:0,Silver:1000" as ranks; entries that are not NAME:POINTS are reported, not guessed. */
function parseRanksFlag(text: string): { ranks: unknown[]; problems: string[] } {
  const ranks: unknown[] = [];
  const problems: string[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const colon = entry.lastIndexOf(':');
    if (colon <= 0) {
      problems.push(`--ranks: "${entry}" is not NAME:MIN_TOTAL_POINTS`);
      continue;
    }
    ranks.push({ name: entry.slice(0, colon).trim(), minTotalPoints: numberOrText(entry.slice(colon + 1)) });
  }
  return { ranks, problems };
}

const rewardsSet: Command = {
  name: 'rewards:set',
  description:
    'Changes points per item, the most points a user earns per UTC day, the ranks and after how many months ' +
    'points expire in config/rewards; ' +
    'omitted values stay as they are. An invalid config is refused.',
  flags: {
    plastic: { value: 'POINTS', description: 'points per plastic bottle' },
    metal: { value: 'POINTS', description: 'points per metal can' },
    'daily-cap': { value: 'POINTS', description: 'the most points a user earns per UTC day' },
    ranks: { value: 'RANKS', description: 'every rank with its lowest total, e.g. "Bronze:0,Silver:1000,Gold:5000"' },
    'expire-after-months': {
      value: 'N|none',
      description:
        `points are valid through the last day of the month N (${MIN_EXPIRE_AFTER_MONTHS}-${MAX_EXPIRE_AFTER_MONTHS}) ` +
        'months after the month they were added; none: they never expire. Set or lowered, no points expire ' +
        'in the next 30 days (each such date still gets its reminder)',
    },
  },
  anyOf: ['plastic', 'metal', 'daily-cap', 'ranks', 'expire-after-months'],
  uses: { firestore: true },
  run: async (flags) => {
    const { raw, config: stored } = await storedRewards();
    // Every stored field is kept unless a flag changes it.
    const candidate: Record<string, unknown> = { ...raw };
    const syntaxProblems: string[] = [];
    const plastic = flags.get('plastic');
    const metal = flags.get('metal');
    const dailyCap = flags.get('daily-cap');
    const ranks = flags.get('ranks');
    if (plastic !== undefined) candidate.pointsPerPlastic = numberOrText(plastic);
    if (metal !== undefined) candidate.pointsPerMetal = numberOrText(metal);
    if (dailyCap !== undefined) candidate.dailyPointsCap = numberOrText(dailyCap);
    const expireAfterMonths = flags.get('expire-after-months');
    if (expireAfterMonths !== undefined) {
      candidate.pointsExpireAfterMonths = expireAfterMonths === 'none' ? null : numberOrText(expireAfterMonths);
    }
    if (ranks !== undefined) {
      const parsed = parseRanksFlag(ranks);
      candidate.ranks = parsed.ranks;
      syntaxProblems.push(...parsed.problems);
    }
    const { config, problems } = parseRewardsConfig(candidate);
    const all = [...syntaxProblems, ...problems];
    if (all.length > 0) {
      throw new CliError(
        `refused: the rewards config would be invalid, nothing was written:\n${all.map((p) => `  - ${p}`).join('\n')}`,
      );
    }
    config.pointsExpireNotBefore = notBeforeAfterChange(
      stored.pointsExpireAfterMonths,
      config.pointsExpireAfterMonths,
      stored.pointsExpireNotBefore,
      utcDay(new Date()),
    );
    await rewardsConfigRef().set({ ...config, updatedAt: FieldValue.serverTimestamp() });
    await note(
      'Saved config/rewards. Transactions from now on use it, and every user view shows ranks under it at once.',
    );
    await printJson(config);
  },
};

const rewardsShow: Command = {
  name: 'rewards:show',
  description: 'Prints the rewards config in effect.',
  flags: {},
  uses: { firestore: true },
  run: async () => {
    const { raw, config, invalidFields, problems } = await storedRewards();
    if (!raw) await note('config/rewards does not exist: the defaults apply.');
    else if (problems.length > 0) {
      await note(
        `config/rewards is invalid (${problems.join('; ')}): the defaults of ${invalidFields.join(', ')} apply.`,
      );
    }
    await printJson(config);
  },
};

export const rewardsCommands: readonly Command[] = [rewardsSet, rewardsShow];
