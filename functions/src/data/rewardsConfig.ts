import { logError } from '../log';
import { db } from '../adapters/firestore';
import { parseRewardsConfig, type RewardsConfig } from '../domain/rewards';

export const rewardsConfigRef = () => db().doc('config/rewards');

/**
 * The operator-editable rewards config. A broken document must not stop kiosks
 * from awarding: the defaults apply and the problem is logged for the operator.
 */
export async function loadRewardsConfig(): Promise<RewardsConfig> {
  const snapshot = await rewardsConfigRef().get();
  const { config, problems } = parseRewardsConfig(snapshot.data());
  if (problems.length > 0) logError('rewards_config_invalid', { problems });
  return config;
}
