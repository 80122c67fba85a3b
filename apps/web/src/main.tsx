import './no-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { languageReady } from './i18n';
import { App } from './app/app';
import { preloadPageOf } from './app/routes';
import { forgetStoredTokens } from './services/token-storage';

// The access token lives in memory only; drop any copy an older version left in web storage.
forgetStoredTokens();

// The page in the address bar starts loading now, while the session is checked.
preloadPageOf(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Root element #root is missing');

// Rendered once the language's texts are there (English at once; another language after its chunk).
void languageReady.finally(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
