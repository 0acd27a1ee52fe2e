import { Page } from '../components/Page';

export default function NotFound() {
  return (
    <Page title="Page not found">
      <p>The console has no page at this address.</p>
      <p>
        <a href="/fleet">Go to Fleet</a>
      </p>
    </Page>
  );
}
