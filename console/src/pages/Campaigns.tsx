import { Page } from '../components/Page';
export default function P() {
  return <Page title="Campaigns">…</Page>;
}
