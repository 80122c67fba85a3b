import './no-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './app/app';
import { forgetStoredTokens } from './services/token-storage';

// The access token lives in memory only; drop any copy an older version left in web storage.
forgetStoredTokens();

const container = document.getElementById('root');
if (!container) throw new Error('Root element #root is missing');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
