import { useRef, useState } from 'preact/hooks';
import { api, apiText, numberOrText } from '../api';
import { saveFile } from '../download';
import { ActionButton, ActionForm } from '../components/Actions';
import { CursorTable, PAGE_SIZE, type Column } from '../components/DataTable';
import { Details } from '../components/Details';
import { ConfirmDialog, useConfirm } from '../components/Dialog';
import { TextField } from '../components/Field';
import { LoadState, Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { formatDateTime, formatNumber, formatSigned, formatUtcDate } from '../format';
import { useAction, useCursorPages, useLoad, type CursorPages } from '../hooks';
import type { PageProps } from '../navigation';
import type { LedgerEntry, Page as ListPage, Redemption, Transaction, UserProfile } from '../types';

/** The profile of a user, for its details. */
const profileDetails = (user: UserProfile): [string, string][] => [
  ['Name', user.name],
  ['User id', user.id],
  ['Points', formatNumber(user.currentPoints)],
  ['Total points', formatNumber(user.totalPoints)],
  ['Rank', user.rank],
  [
    'Expiring',
    user.expiringPoints
      ? `${formatNumber(user.expiringPoints.points)} points on ${formatUtcDate(user.expiringPoints.expiresAt)}`
      : 'None',
  ],
  ['Held points', formatNumber(user.heldPoints)],
  ['Suspended', user.suspended ? 'Yes: every deposit is held, redemptions are refused' : 'No'],
  ['Items recycled', formatNumber(user.recycledCount)],
  ['Push notifications', user.hasPushToken ? 'A device is registered' : 'No device registered'],
];

export default function User({ params }: PageProps) {
  const { userId } = params;
  const path = `/user/${encodeURIComponent(userId)}`;
  const profile = useLoad(() => api<{ user: UserProfile }>(path).then((answer) => answer.user), [path]);
  const listPage =
    <T,>(segment: string, key: string) =>
    (cursor: string | undefined): Promise<ListPage<T>> =>
      api<Record<string, unknown>>(`${path}/${segment}`, { query: { limit: PAGE_SIZE, cursor } }).then((answer) => ({
        items: answer[key] as T[],
        nextCursor: answer.nextCursor as string | null,
      }));
  const history = useCursorPages(listPage<LedgerEntry>('history', 'entries'), [path]);
  const redemptions = useCursorPages(listPage<Redemption>('redemptions', 'redemptions'), [path]);
  const [erased, setErased] = useState<string | undefined>();

  if (erased) {
    return (
      <Page title={`User ${userId}`}>
        <Outcome outcome={{ kind: 'status', text: erased }} />
      </Page>
    );
  }
  return (
    <Page title={`User ${userId}`}>
      <LoadState of={profile} />
      {profile.data && (
        <>
          <Details items={profileDetails(profile.data)} />
          <AdjustPoints
            userPath={`/admin/users/${encodeURIComponent(userId)}`}
            onAdjusted={() => {
              profile.reload();
              history.first();
            }}
          />
          <Suspension
            suspended={profile.data.suspended}
            userPath={`/admin/users/${encodeURIComponent(userId)}`}
            onChanged={profile.reload}
          />
          <ClaimCode
            userPath={path}
            onClaimed={() => {
              profile.reload();
              history.first();
            }}
          />
          <History pages={history} />
          <Redemptions
            pages={redemptions}
            onCancelled={() => {
              profile.reload();
              history.first();
              redemptions.reload();
            }}
          />
          <PersonalData userId={userId} userPath={path} onErased={setErased} />
        </>
      )}
    </Page>
  );
}

/**
 * Each attempt carries its own Idempotency-Key: made when the form is filled in, sent
 * again only if the very same attempt is re-sent (e.g. after a network failure), so a
 * retry is never applied twice and a new adjustment never taken for an old one.
 */
function AdjustPoints({ userPath, onAdjusted }: { userPath: string; onAdjusted: () => void }) {
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
function Suspension(props: { suspended: boolean; userPath: string; onChanged: () => void }) {
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
function ClaimCode({ userPath, onClaimed }: { userPath: string; onClaimed: () => void }) {
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

function entryDetails(entry: LedgerEntry): string {
  if (entry.transaction) {
    const { kioskId, plasticCount, metalCount } = entry.transaction;
    return `Deposit at ${kioskId}: ${plasticCount} plastic, ${metalCount} metal`;
  }
  if (entry.redemption) return `${entry.kind === 'refund' ? 'Refund of' : 'Redeemed'} ${entry.redemption.rewardName}`;
  return entry.reason ?? '';
}

const historyColumns: Column<LedgerEntry>[] = [
  { header: 'When', cell: (entry) => formatDateTime(entry.createdAt), rowHeader: true },
  { header: 'Kind', cell: (entry) => entry.kind },
  { header: 'Points', cell: (entry) => formatSigned(entry.points), numeric: true },
  { header: 'Balance after', cell: (entry) => formatNumber(entry.balanceAfter), numeric: true },
  { header: 'Details', cell: entryDetails },
];

function History({ pages }: { pages: CursorPages<LedgerEntry> }) {
  return (
    <section>
      <h2>History</h2>
      <CursorTable caption="History" columns={historyColumns} pages={pages} rowKey="id" empty="No history yet." />
    </section>
  );
}

const redemptionName = (redemption: Redemption): string => redemption.code ?? redemption.id;

function Redemptions({ pages, onCancelled }: { pages: CursorPages<Redemption>; onCancelled: () => void }) {
  const cancel = useConfirm<Redemption>();
  const [reason, setReason] = useState('');

  const columns: Column<Redemption>[] = [
    { header: 'When', cell: (redemption) => formatDateTime(redemption.createdAt), rowHeader: true },
    { header: 'Reward', cell: (redemption) => redemption.rewardName },
    { header: 'Cost', cell: (redemption) => formatNumber(redemption.cost), numeric: true },
    { header: 'Code', cell: (redemption) => redemption.code ?? '—' },
    {
      header: 'Status',
      cell: (redemption) =>
        redemption.status === 'cancelled' && redemption.cancelReason
          ? `cancelled (${redemption.cancelReason})`
          : redemption.status,
    },
    {
      header: 'Action',
      cell: (redemption) =>
        redemption.status === 'issued' ? (
          <button
            type="button"
            class="danger"
            onClick={() => {
              setReason('');
              cancel.ask(redemption);
            }}
          >
            Cancel redemption {redemptionName(redemption)}
          </button>
        ) : null,
    },
  ];

  return (
    <section>
      <h2>Redemptions</h2>
      <ConfirmDialog
        confirm={cancel}
        verb="Cancel"
        noun="redemption"
        act={async (redemption) => {
          const answer = await api<{ newBalance: number }>(
            `/admin/redemptions/${encodeURIComponent(redemption.id)}/cancel`,
            { method: 'POST', body: { reason } },
          );
          return `Redemption ${redemptionName(redemption)} cancelled: ${formatNumber(redemption.cost)} points went back, the balance is now ${formatNumber(answer.newBalance)}.`;
        }}
        onDone={onCancelled}
      >
        {(redemption) => (
          <>
            <p>
              {redemption.rewardName} ({redemptionName(redemption)}): the {formatNumber(redemption.cost)} points go back
              to the user and the redemption is marked cancelled, with your reason.
            </p>
            <TextField label="Reason" value={reason} maxLength={200} onValue={setReason} />
          </>
        )}
      </ConfirmDialog>
      <CursorTable caption="Redemptions" columns={columns} pages={pages} rowKey="id" empty="No redemptions yet." />
    </section>
  );
}

/**
 * The person's data (contract §15): everything stored about them as a JSON file, and
 * their erasure, only after a confirmation; afterwards the page says they were erased.
 */
function PersonalData(props: { userId: string; userPath: string; onErased: (text: string) => void }) {
  const exporting = useAction();
  const erase = useConfirm<string>();
  const erased = `User ${props.userId} was erased: the sign-in account, name, push token and notifications are gone; the points history is kept for the books under the bare id.`;
  return (
    <section>
      <h2>Personal data</h2>
      <div class="actions">
        <ActionButton
          action={exporting}
          run={async () =>
            saveFile(
              `user-${props.userId}-export.json`,
              await apiText(`${props.userPath}/export`, {}),
              'application/json',
            )
          }
        >
          Export data
        </ActionButton>
        <button type="button" class="danger" onClick={() => erase.ask(props.userId)}>
          Erase user
        </button>
      </div>
      <Outcome outcome={exporting.outcome} />
      <ConfirmDialog
        confirm={erase}
        verb="Erase"
        noun="user"
        act={async () => {
          await api(props.userPath, { method: 'DELETE' });
          return erased;
        }}
        onDone={() => props.onErased(erased)}
      >
        {() => (
          <p>
            The sign-in account, the name, the push token and every notification are deleted, and the remaining points
            are forfeited. The history stays for the books under the bare id. This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
