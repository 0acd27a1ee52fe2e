import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { parseRiskConfig, type RiskConfig, type RiskLimit } from '../domain/risk';
import { logError } from '../log';

/** config/risk: the limits of contract §17, each off (absent or null) until an operator sets it. */
export const riskConfigRef = () => db().doc('config/risk');

/** The limits from a snapshot of `config/risk`, read with the award's other documents (never cached). */
export function riskConfigFromSnapshot(snapshot: DocumentSnapshot): RiskConfig {
  const { config, invalid } = parseRiskConfig(snapshot.data());
  if (invalid.length > 0) logError('risk_config_invalid', { fields: invalid });
  return config;
}

export const loadRiskConfig = async (): Promise<RiskConfig> => riskConfigFromSnapshot(await riskConfigRef().get());

/** Sets the limits given (null: off), keeping the others; returns the limits now. */
export function saveRiskConfig(changes: Partial<Record<RiskLimit, number | null>>): Promise<RiskConfig> {
  return runTransaction(async (tx) => {
    const ref = riskConfigRef();
    const before = riskConfigFromSnapshot(await tx.get(ref));
    const after = { ...before, ...changes };
    tx.set(ref, after);
    return after;
  });
}
