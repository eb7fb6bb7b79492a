import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './api/hooks';
import { initI18n, storedLanguage } from './i18n';
import { routes } from './routes';
import './index.css';

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

// Load only the current language's bundle, then render.
initI18n(storedLanguage()).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
});
