/** webhook:create, webhook:list, webhook:rotate-secret, webhook:delete: the CLI side of the webhook routes (§13). */
import { admin, cli } from './cli-runner';
import { resetEmulators } from './helpers';
import { adminHeaders, call } from './requests';

beforeEach(resetEmulators);

test('create (secret printed once), list (never a secret), rotate, delete', async () => {
  const created = JSON.parse(
    await admin('webhook:create', '--url', 'http://127.0.0.1:9/hooks', '--events', 'alert.opened, alert.resolved'),
  );
  expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['alert.opened', 'alert.resolved'] });
  expect(created.secret).toMatch(/^whsec_/);

  const listed = JSON.parse(await admin('webhook:list', '--json'));
  expect(listed).toEqual([expect.objectContaining({ id: created.id, active: true })]);
  expect(JSON.stringify(listed)).not.toContain('whsec_');
  expect(await admin('webhook:list')).toContain(created.id);

  const rotated = JSON.parse(await admin('webhook:rotate-secret', '--id', created.id));
  expect(rotated.secret).toMatch(/^whsec_/);
  expect(rotated.secret).not.toBe(created.secret);

  expect(await admin('webhook:delete', '--id', created.id)).toBe(`Deleted webhook ${created.id}.\n`);
  const api = await call('GET', '/admin/webhooks', { headers: await adminHeaders() });
  expect(api.body.webhooks).toEqual([]);
});

test('a refused URL or an unknown event type: exit 1 with the reason', async () => {
  const refused = await cli('webhook:create', '--url', 'https://10.0.0.1/', '--events', 'alert.opened');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('private or reserved address');
  const unknown = await cli('webhook:create', '--url', 'https://hooks.example.com/', '--events', 'nope');
  expect(unknown.code).toBe(1);
  expect(unknown.stdout).toBe('');
});

test("--partner: a partner's webhook, listed with its partner", async () => {
  const partner = await call('POST', '/admin/partners', {
    body: { id: 'cafe', name: 'Café' },
    headers: await adminHeaders(),
  });
  expect(partner.status).toBe(201);
  const args = ['--url', 'http://127.0.0.1:9/hooks', '--events', 'redemption.used', '--partner'];
  const created = JSON.parse(await admin('webhook:create', ...args, 'cafe'));
  expect(created).toMatchObject({ events: ['redemption.used'], partnerId: 'cafe' });
  expect(JSON.parse(await admin('webhook:list', '--json'))).toEqual([
    expect.objectContaining({ id: created.id, partnerId: 'cafe' }),
  ]);
  expect(await admin('webhook:list')).toMatch(/redemption\.used\s+cafe/);
  const unknown = await cli('webhook:create', ...args, 'nobody');
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('Partner nobody not found');
});
