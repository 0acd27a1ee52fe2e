import { Fragment } from 'preact';

/** A record's details as a description list: each term with its value. */
export function Details({ items }: { items: [term: string, value: string][] }) {
  return (
    <dl class="details">
      {items.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
