/**
 * Where the console is: the address bar's path, followed with the History API (Hosting serves index.html for
 * every path). The router maps the path to a page; pages and the shell move to another path. Both sides import
 * this module, and neither imports the other.
 */
import { createStore, useStore } from './store';

/** What the router hands a page: the named parts of its path (e.g. `kioskId`). */
export interface PageProps {
  params: Record<string, string>;
}

/** The navigation's links: path and name. */
export const NAV_LINKS = [
  ['/fleet', 'Fleet'],
  ['/alerts', 'Alerts'],
  ['/reports', 'Reports'],
  ['/rewards', 'Rewards'],
  ['/users', 'Users'],
  ['/campaigns', 'Campaigns'],
  // Webhooks (contract §13).
  ['/webhooks', 'Webhooks'],
  // Partners (§12)
  ['/partners', 'Partners'],
  // Promotions (contract §16).
  ['/promotions', 'Promotions'],
  // Trust (§17)
  ['/holds', 'Holds'],
] as const;

const path = createStore(location.pathname);
export const usePath = (): string => useStore(path);

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else if (to !== location.pathname) history.pushState(null, '', to);
  path.set(location.pathname);
}

/** Links stay in the app: one listener for every <a>, the map's popups included. */
export function followLinks(): void {
  addEventListener('popstate', () => path.set(location.pathname));
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a');
    if (
      !link ||
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    if (link.target || link.hasAttribute('download') || link.origin !== location.origin) return;
    event.preventDefault();
    navigate(link.pathname);
  });
}
