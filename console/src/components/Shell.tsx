import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { signOut, useSession } from '../auth';
import { NAV_LINKS, navigate, usePath } from '../navigation';

/** The frame of every page: skip link, header (navigation and Sign out once signed in) and main. */
export function Shell({ children }: { children: ComponentChildren }) {
  const session = useSession();
  const path = usePath();
  const [signingOut, setSigningOut] = useState(false);
  const signedIn = session.state === 'signed-in';
  return (
    <>
      <a class="skip-link" href="#content" onClick={skipToContent}>
        Skip to content
      </a>
      <header class="site-header">
        <p class="site-name">Kiosk Rewards console</p>
        {signedIn && (
          <>
            <nav aria-label="Main">
              <ul>
                {NAV_LINKS.map(([href, name]) => (
                  <li key={href}>
                    <a href={href} aria-current={isCurrent(path, href) ? 'page' : undefined}>
                      {name}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            <button
              type="button"
              class="secondary"
              disabled={signingOut}
              onClick={() => {
                setSigningOut(true);
                signOut().finally(() => {
                  setSigningOut(false);
                  navigate('/sign-in');
                });
              }}
            >
              Sign out
            </button>
          </>
        )}
      </header>
      <main id="content" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** The kiosk and user pages belong to Fleet and Users. */
const isCurrent = (path: string, href: string): boolean =>
  path === href || (href === '/fleet' && path.startsWith('/kiosks/')) || path.startsWith(`${href}/`);

/** The router catches same-page links, so the skip link moves focus itself. */
function skipToContent(event: MouseEvent) {
  event.preventDefault();
  document.getElementById('content')?.focus();
}
