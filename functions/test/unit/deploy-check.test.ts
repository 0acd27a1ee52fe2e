import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployedParams, deployProblems, hostingRewriteProblems, paramNames } from '../../src/cli/deployCheck';
import { parseDotenv } from '../../src/cli/params';

const functionsDir = join(__dirname, '..', '..');
const committed = (name: string) => parseDotenv(readFileSync(join(functionsDir, name), 'utf8'));
const NO_PRODUCTION_DEFAULT = [
  'SMTP_HOST: no value (it has no production default)',
  'MAIL_FROM: no value (it has no production default)',
];

describe('production values (contract: nothing emulator-only is presented as production)', () => {
  test('the committed functions/.env has no emulator value, and no value for SMTP_HOST and MAIL_FROM', () => {
    // A project without its own .env.<projectId>: what a deploy of a new project reads.
    expect(deployProblems(deployedParams('kiosk-rewards-prod'), paramNames())).toEqual(NO_PRODUCTION_DEFAULT);
  });

  test('every param declared in config.ts is known to the check (secrets aside)', () => {
    expect(paramNames()).toEqual(expect.arrayContaining(['SMTP_HOST', 'MAIL_FROM', 'FUNCTIONS_REGION', 'SMTP_PORT']));
    expect(paramNames()).not.toContain('SMTP_PASSWORD');
  });

  test('the emulators get every param from .env and their own .env.local, so they never prompt', () => {
    const emulated = { ...committed('.env'), ...committed('.env.local') };
    expect(paramNames().filter((name) => emulated[name] === undefined)).toEqual([]);
  });

  test(".env.local's values would be refused in a deploy, each named", () => {
    const problems = deployProblems({ ...committed('.env'), ...committed('.env.local') }, paramNames());
    expect(problems).toEqual([
      'SMTP_HOST: 127.0.0.1 is this machine, not a mail server',
      expect.stringMatching(/^MAIL_FROM: .* is an example address/),
    ]);
  });

  test.each([
    ['localhost', 'no-reply@recycling.example.org'],
    ['::1', 'Kiosk Rewards <no-reply@kiosk-rewards.test>'],
    ['127.0.0.53', 'someone@example.com'],
  ])('SMTP_HOST %s and MAIL_FROM %s are refused', (host, from) => {
    const problems = deployProblems({ ...committed('.env'), SMTP_HOST: host, MAIL_FROM: from }, paramNames());
    expect(problems.map((problem) => problem.split(':')[0])).toEqual(['SMTP_HOST', 'MAIL_FROM']);
  });

  test(".env.<projectId> over .env: a project's real values pass", () => {
    const dir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
    writeFileSync(join(dir, '.env'), readFileSync(join(functionsDir, '.env')));
    writeFileSync(
      join(dir, '.env.kiosk-rewards-prod'),
      'SMTP_HOST=smtp.mail-provider.net\nMAIL_FROM="Kiosk Rewards <no-reply@kiosk-rewards.eu>"\n',
    );
    writeFileSync(join(dir, '.env.local'), 'SMTP_HOST=127.0.0.1\n');
    const params = deployedParams('kiosk-rewards-prod', dir);
    expect(params).toMatchObject({ SMTP_HOST: 'smtp.mail-provider.net', FUNCTIONS_REGION: 'us-central1' });
    expect(deployProblems(params, paramNames())).toEqual([]);
  });

  test('firebase.json runs the check before every functions deploy, after the build', () => {
    const firebase = JSON.parse(readFileSync(join(functionsDir, '..', 'firebase.json'), 'utf8'));
    expect(firebase.functions[0].predeploy).toEqual([
      'npm --prefix "$RESOURCE_DIR" run build',
      'npm --prefix "$RESOURCE_DIR" run --silent check-deploy',
    ]);
  });

  describe('the console reaches the api through Hosting (contract §11: no cross-origin setup)', () => {
    const firebase = () => JSON.parse(readFileSync(join(functionsDir, '..', 'firebase.json'), 'utf8'));

    test("firebase.json rewrites /api/** to the api function in the committed FUNCTIONS_REGION, before the console's pages", () => {
      const { rewrites } = firebase().hosting;
      expect(rewrites[0]).toEqual({ source: '/api/**', function: { functionId: 'api', region: 'us-central1' } });
      expect(rewrites.at(-1)).toEqual({ source: '**', destination: '/index.html' });
      expect(hostingRewriteProblems(firebase(), committed('.env').FUNCTIONS_REGION)).toEqual([]);
    });

    test('a project whose functions run in another region is stopped, naming both regions', () => {
      expect(hostingRewriteProblems(firebase(), 'europe-west1')).toEqual([
        'firebase.json: hosting rewrites /api/** to region us-central1, FUNCTIONS_REGION is europe-west1',
      ]);
    });

    test('a firebase.json without the rewrite is stopped', () => {
      expect(hostingRewriteProblems({ hosting: { rewrites: [] } }, 'us-central1')).toEqual([
        'firebase.json: hosting has no rewrite to the api function (the console needs /api/**)',
      ]);
    });

    test('firebase.json builds the console before every hosting deploy', () => {
      expect(firebase().hosting.predeploy).toEqual(['node scripts/ensure-deps.mjs', 'npm --prefix console run build']);
    });
  });
});
