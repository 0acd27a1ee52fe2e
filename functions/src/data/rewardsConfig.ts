import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { logError } from '../log';
import { db } from '../adapters/firestore';
import { parseRewardsConfig, type RewardsConfig } from '../domain/rewards';

export const rewardsConfigRef = () => db().doc('config/rewards');

/**
 * The operator-editable rewards config. A broken document must not stop kiosks
 * from awarding: the defaults apply and the problem is logged for the operator.
 */
export async function loadRewardsConfig(): Promise<RewardsConfig> {
  return rewardsConfigFromSnapshot(await rewardsConfigRef().get());
}

/** The config from a snapshot of `config/rewards` read along with other documents. */
export function rewardsConfigFromSnapshot(snapshot: DocumentSnapshot): RewardsConfig {
  const { config, problems } = parseRewardsConfig(snapshot.data());
  if (problems.length > 0) logError('rewards_config_invalid', { problems });
  return config;
}
