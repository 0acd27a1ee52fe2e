import { render } from 'preact';
import { startSession } from './auth';
import { Shell } from './components/Shell';
import { loadEnvironment } from './environment';
import { followLinks } from './navigation';
import { Router } from './router';
import './styles.css';

const root = document.getElementById('app')!;

loadEnvironment().then(
  (environment) => {
    startSession(environment);
    followLinks();
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
