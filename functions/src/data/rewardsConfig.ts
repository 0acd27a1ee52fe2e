import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { logError } from '../log';
import { db } from '../adapters/firestore';
import { parseRewardsConfig, type RewardsConfig } from '../domain/rewards';

export const rewardsConfigRef = () => db().doc('config/rewards');

/**
 * The operator-editable rewards config. A broken field must not stop kiosks from
 * awarding: that field's default applies, the others stay as configured, and the
 * operator finds the field named in an error log entry.
 */
export async function loadRewardsConfig(): Promise<RewardsConfig> {
  return rewardsConfigFromSnapshot(await rewardsConfigRef().get());
}

/** The config from a snapshot of `config/rewards` read along with other documents. */
export function rewardsConfigFromSnapshot(snapshot: DocumentSnapshot): RewardsConfig {
  const { config, invalidFields, problems } = parseRewardsConfig(snapshot.data());
  if (problems.length > 0) logError('rewards_config_invalid', { fields: invalidFields, problems });
  return config;
}
