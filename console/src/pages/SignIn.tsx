import { signIn, useSession } from '../auth';
import { Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { useAction } from '../hooks';

export default function SignIn() {
  const session = useSession();
  const { busy, outcome, run } = useAction();
  // Why the last session ended (expired, not an operator), until the next attempt says more.
  const shown = outcome ?? (session.state === 'signed-out' ? session.notice : undefined);
  return (
    <Page title="Sign in">
      <p>For the operator's staff: sign in with your work account.</p>
      <form
        class="form narrow"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          run(async () => {
            await signIn(String(form.get('email')).trim(), String(form.get('password')));
            return 'Signed in.';
          });
        }}
      >
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <Outcome outcome={shown} />
      </form>
    </Page>
  );
}
