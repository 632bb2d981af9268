/**
 * The web app's pages and their paths, all under /app (the service answers index.html for each).
 * Signed-out visitors see only the sign-in and invitation pages; every other page is inside the
 * session (RequireSession) and the layout (header and navigation); the console pages (API keys,
 * members, webhooks, account) are the owner's; /password is every member's.
 */
import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router';
import { Layout } from './layout.js';
import { RequireSession, SessionProvider } from './session.js';
import { SignInPage } from './pages/sign-in.js';
import { InvitationPage } from './pages/invitation.js';
import { KeysPage } from './pages/console-keys.js';
import { MembersPage } from './pages/console-members.js';
import { AccountPage } from './pages/console-account.js';
import { WebhooksPage } from './pages/console-webhooks.js';
import { PasswordPage } from './pages/password.js';
import { VehiclesPage } from './pages/vehicles.js';
import { TemplatesPage } from './pages/templates.js';
import { ProjectsPage } from './pages/projects.js';
import { PlaygroundPage } from './pages/playground.js';
import { JobsPage } from './pages/jobs.js';
import { JobPage } from './pages/job.js';

/** Router, session and routes (contract of). */
export function App() {
  return (
    <BrowserRouter basename="/app">
      <SessionProvider>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route path="/invitations/:token" element={<InvitationPage />} />
          <Route
            element={
              <RequireSession>
                <Layout />
              </RequireSession>
            }
          >
            <Route
              path="/console"
              element={
                <RequireSession owner>
                  <Outlet />
                </RequireSession>
              }
            >
              <Route path="keys" element={<KeysPage />} />
              <Route path="members" element={<MembersPage />} />
              <Route path="webhooks" element={<WebhooksPage />} />
              <Route path="account" element={<AccountPage />} />
              <Route index element={<Navigate to="/console/keys" replace />} />
            </Route>
            <Route path="/vehicles" element={<VehiclesPage />} />
            <Route path="/templates" element={<TemplatesPage />} />
            <Route path="/projects" element={<ProjectsPage />} />
            <Route path="/playground" element={<PlaygroundPage />} />
            <Route path="/jobs" element={<JobsPage />} />
            <Route path="/jobs/:id" element={<JobPage />} />
            <Route path="/password" element={<PasswordPage />} />
            <Route path="*" element={<Navigate to="/playground" replace />} />
          </Route>
        </Routes>
      </SessionProvider>
    </BrowserRouter>
  );
}
