import { useState } from 'preact/hooks';
import { api, apiText } from '../api';
import { saveFile } from '../download';
import { ActionButton } from '../components/Actions';
import { PAGE_SIZE } from '../components/DataTable';
import { Details } from '../components/Details';
import { ConfirmDialog, useConfirm } from '../components/Dialog';
import { LoadState, Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { AdjustPoints, ClaimCode, Suspension } from '../components/UserActions';
import { History, Redemptions } from '../components/UserRecords';
import { formatNumber, formatUtcDate } from '../format';
import { useAction, useCursorPages, useLoad } from '../hooks';
import type { PageProps } from '../navigation';
import type { LedgerEntry, Page as ListPage, Redemption, UserProfile } from '../types';

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
