/**
 * What support changes on a user's account (the user page): their points by an
 * adjustment, their suspension (§17), a claim code claimed for them (§18).
 */
import { useRef, useState } from 'preact/hooks';
import { api, numberOrText } from '../api';
import { ActionButton, ActionForm } from './Actions';
import { TextField } from './Field';
import { Outcome } from './Outcome';
import { formatNumber, formatSigned } from '../format';
import { useAction } from '../hooks';
import type { Transaction, UserProfile } from '../types';

/**
 * Each attempt carries its own Idempotency-Key: made when the form is filled in, sent
 * again only if the very same attempt is re-sent (e.g. after a network failure), so a
 * retry is never applied twice and a new adjustment never taken for an old one.
 */
export function AdjustPoints({ userPath, onAdjusted }: { userPath: string; onAdjusted: () => void }) {
  const [points, setPoints] = useState('');
  const [reason, setReason] = useState('');
  const attempt = useRef<{ key: string; points: string; reason: string } | undefined>(undefined);
  const adjust = useAction();
  return (
    <section>
      <h2>Adjust points</h2>
      <ActionForm
        action={adjust}
        submitLabel="Adjust points"
        onSubmit={() => {
          if (attempt.current?.points !== points || attempt.current.reason !== reason) {
            attempt.current = { key: crypto.randomUUID(), points, reason };
          }
          const { key } = attempt.current;
          adjust.run(async () => {
            const answer = await api<{ adjustment: { points: number }; user: UserProfile }>(`${userPath}/adjustments`, {
              method: 'POST',
              headers: { 'Idempotency-Key': key },
              body: {
                points: numberOrText(points),
                reason,
              },
            });
            attempt.current = undefined;
            setPoints('');
            setReason('');
            onAdjusted();
            return `Adjusted by ${formatSigned(answer.adjustment.points)} points: the balance is now ${formatNumber(answer.user.currentPoints)}.`;
          });
        }}
      >
        <TextField
          label="Points"
          type="number"
          hint="A whole number: positive adds points, negative takes them."
          value={points}
          onValue={setPoints}
        />
        <TextField label="Reason" value={reason} maxLength={200} onValue={setReason} />
      </ActionForm>
    </section>
  );
}

/** Trust (contract §17): suspending holds every deposit's points and refuses redemptions; lifted with one button. */
export function Suspension(props: { suspended: boolean; userPath: string; onChanged: () => void }) {
  const [reason, setReason] = useState('');
  const change = useAction();
  return (
    <section>
      <h2>Suspension</h2>
      {props.suspended ? (
        <>
          <div class="actions">
            <ActionButton
              action={change}
              run={async () => {
                await api(`${props.userPath}/unsuspend`, { method: 'POST' });
                props.onChanged();
                return 'The suspension is lifted. Holds made meanwhile stay open for review.';
              }}
            >
              Unsuspend user
            </ActionButton>
          </div>
          <Outcome outcome={change.outcome} />
        </>
      ) : (
        <ActionForm
          action={change}
          submitLabel="Suspend user"
          danger
          onSubmit={() =>
            change.run(async () => {
              await api(`${props.userPath}/suspend`, { method: 'POST', body: { reason } });
              setReason('');
              props.onChanged();
              return "Suspended: every deposit's points are held for review, and redemptions are refused.";
            })
          }
        >
          <TextField label="Why suspend" value={reason} maxLength={200} onValue={setReason} />
        </ActionForm>
      )}
    </section>
  );
}

/**
 * Support claims an anonymous deposit's code for the user (contract §18), e.g. read
 * out from a kiosk's receipt on the phone. One Idempotency-Key per attempt, as for
 * adjustments: a double-click or a re-sent attempt claims once.
 */
export function ClaimCode({ userPath, onClaimed }: { userPath: string; onClaimed: () => void }) {
  const [code, setCode] = useState('');
  const attempt = useRef<{ key: string; code: string } | undefined>(undefined);
  const claim = useAction();
  return (
    <section>
      <h2>Claim a code</h2>
      <ActionForm
        action={claim}
        submitLabel="Claim code"
        onSubmit={() => {
          if (attempt.current?.code !== code) attempt.current = { key: crypto.randomUUID(), code };
          const { key } = attempt.current;
          claim.run(async () => {
            const answer = await api<{ transaction: Transaction; newBalance: number }>(`${userPath}/claims`, {
              method: 'POST',
              headers: { 'Idempotency-Key': key },
              body: { code },
            });
            attempt.current = undefined;
            setCode('');
            onClaimed();
            const { pointsEarned, kioskId, capped } = answer.transaction;
            return `Claimed: ${formatNumber(pointsEarned)} points for a deposit at ${kioskId}${capped ? ' (cut by the daily cap)' : ''}; the balance is now ${formatNumber(answer.newBalance)}.`;
          });
        }}
      >
        <TextField
          label="Claim code"
          hint="The code the kiosk showed, e.g. 7K3Q-M9XW-D2HT: case, spaces and hyphens do not matter."
          value={code}
          maxLength={64}
          onValue={setCode}
        />
      </ActionForm>
    </section>
  );
}
