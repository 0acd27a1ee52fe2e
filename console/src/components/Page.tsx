import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

/** The page first shown keeps the focus where the browser put it; after that, each page focuses its h1. */
let firstPage = true;

/** A page: its h1 (focused on navigation, so screen readers announce where they are) and its title. */
export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // In the commit that shows the h1, so that the tab's title and the heading never disagree.
  useLayoutEffect(() => {
    document.title = `${title} · Kiosk Rewards console`;
  }, [title]);
  useEffect(() => {
    if (!firstPage) heading.current?.focus();
    firstPage = false;
  }, []);
  return (
    <div class="page">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </div>
  );
}
