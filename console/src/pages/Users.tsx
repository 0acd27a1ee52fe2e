import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ActionForm } from '../components/Actions';
import { TextField } from '../components/Field';
import { Page } from '../components/Page';
import { useAction } from '../hooks';
import { navigate } from '../navigation';
import type { UserProfile } from '../types';

/** The user an id or an address names, or undefined. */
async function findUser(search: string): Promise<UserProfile | undefined> {
  if (search.includes('@')) {
    const { users } = await api<{ users: UserProfile[] }>('/admin/users', { query: { email: search } });
    return users[0];
  }
  try {
    return (await api<{ user: UserProfile }>(`/user/${encodeURIComponent(search)}`)).user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export default function Users() {
  const [search, setSearch] = useState('');
  const find = useAction();
  return (
    <Page title="Users">
      <ActionForm
        action={find}
        submitLabel="Find user"
        onSubmit={() => {
          const wanted = search.trim();
          find.run(async () => {
            if (!wanted) throw new Error('Enter a user id or an email address.');
            const user = await findUser(wanted);
            if (!user)
              throw new Error(`No user ${wanted.includes('@') ? 'has the email address' : 'has the id'} ${wanted}.`);
            navigate(`/users/${encodeURIComponent(user.id)}`);
            return `Found ${user.name}.`;
          });
        }}
      >
        <TextField
          label="User id or email"
          autoComplete="off"
          hint="An address (with @) is looked up exactly; anything else as a user id."
          value={search}
          onValue={setSearch}
        />
      </ActionForm>
    </Page>
  );
}
