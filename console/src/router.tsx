/**
 * Paths to pages (the path itself: navigation.ts). Each page is its own chunk, loaded on
 * first visit, so the first page stays small.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useSession } from './auth';
import { navigate, usePath, type PageProps } from './navigation';

type PageModule = { default: ComponentType<PageProps> };

interface Route {
  pattern: RegExp;
  /** Names of the pattern's groups, in order. */
  params?: string[];
  load: () => Promise<PageModule>;
  /** Open to anyone: the sign-in page. */
  public?: boolean;
}

const routes: Route[] = [
  { pattern: /^\/sign-in$/, load: () => import('./pages/SignIn'), public: true },
  { pattern: /^\/fleet$/, load: () => import('./pages/Fleet') },
  { pattern: /^\/kiosks\/([^/]+)$/, params: ['kioskId'], load: () => import('./pages/Kiosk') },
  { pattern: /^\/alerts$/, load: () => import('./pages/Alerts') },
  { pattern: /^\/reports$/, load: () => import('./pages/Reports') },
  { pattern: /^\/rewards$/, load: () => import('./pages/Rewards') },
  { pattern: /^\/users$/, load: () => import('./pages/Users') },
  { pattern: /^\/users\/([^/]+)$/, params: ['userId'], load: () => import('./pages/User') },
  { pattern: /^\/campaigns$/, load: () => import('./pages/Campaigns') },
  // Webhooks (contract §13).
  { pattern: /^\/webhooks$/, load: () => import('./pages/Webhooks') },
  // Partners (§12)
  { pattern: /^\/partners$/, load: () => import('./pages/Partners') },
  // Promotions (contract §16).
  { pattern: /^\/promotions$/, load: () => import('./pages/Promotions') },
  // Trust (§17)
  { pattern: /^\/holds$/, load: () => import('./pages/Holds') },
];
const notFound: Route = { pattern: /$^/, load: () => import('./pages/NotFound'), public: true };

function match(currentPath: string): { route: Route; params: Record<string, string> } {
  for (const route of routes) {
    const found = route.pattern.exec(currentPath);
    if (!found) continue;
    const params = Object.fromEntries(
      (route.params ?? []).map((name, index) => [name, decodeURIComponent(found[index + 1])]),
    );
    return { route, params };
  }
  return { route: notFound, params: {} };
}

/** Where a signed-out visitor was going: shown once they have signed in. */
let afterSignIn = '/fleet';

export function Router() {
  const currentPath = usePath();
  const session = useSession();
  const { route, params } = match(currentPath);
  const redirect =
    currentPath === '/'
      ? '/fleet'
      : session.state === 'signed-out' && !route.public
        ? '/sign-in'
        : session.state === 'signed-in' && currentPath === '/sign-in'
          ? afterSignIn
          : undefined;
  const [page, setPage] = useState<{ route: Route; module?: PageModule; failure?: string } | undefined>();

  useEffect(() => {
    if (redirect) {
      if (redirect === '/sign-in') afterSignIn = currentPath;
      if (currentPath === '/sign-in') afterSignIn = '/fleet';
      navigate(redirect, { replace: true });
      return;
    }
    let current = true;
    route.load().then(
      (module) => current && setPage({ route, module }),
      (error: unknown) =>
        current && setPage({ route, failure: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [route, redirect, currentPath]);

  if (redirect || session.state === 'starting' || page?.route !== route) return <p class="loading">Loading…</p>;
  if (!page.module) {
    return <p role="alert">This page could not be loaded ({page.failure}). Reload the browser page to try again.</p>;
  }
  const Page = page.module.default;
  return <Page key={currentPath} params={params} />;
}
