import { render } from 'preact';
import { startSession } from './auth';
import { Shell } from './components/Shell';
import { loadEnvironment } from './environment';
import { Router, startRouter } from './router';
import './styles.css';

const root = document.getElementById('app')!;

loadEnvironment().then(
  (environment) => {
    startSession(environment);
    startRouter();
    render(
      <Shell>
        <Router />
      </Shell>,
      root,
    );
  },
  (error: unknown) => {
    render(
      <main class="page">
        <h1>The console cannot start</h1>
        <p role="alert">{error instanceof Error ? error.message : String(error)}</p>
      </main>,
      root,
    );
  },
);
