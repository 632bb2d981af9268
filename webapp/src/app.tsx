/**
 * The web app's pages and their paths, all under /app (the service answers index.html for each).
 * Signed-out visitors see only the sign-in and invitation pages.
 */
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { SignInPage } from './pages/sign-in.js';
import { InvitationPage } from './pages/invitation.js';
import { KeysPage } from './pages/console-keys.js';
import { MembersPage } from './pages/console-members.js';
import { AccountPage } from './pages/console-account.js';
import { VehiclesPage } from './pages/vehicles.js';
import { TemplatesPage } from './pages/templates.js';
import { ProjectsPage } from './pages/projects.js';
import { PlaygroundPage } from './pages/playground.js';
import { JobsPage } from './pages/jobs.js';
import { JobPage } from './pages/job.js';

export function App() {
  return (
    <BrowserRouter basename="/app">
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/invitations/:token" element={<InvitationPage />} />
        <Route path="/console/keys" element={<KeysPage />} />
        <Route path="/console/members" element={<MembersPage />} />
        <Route path="/console/account" element={<AccountPage />} />
        <Route path="/vehicles" element={<VehiclesPage />} />
        <Route path="/templates" element={<TemplatesPage />} />
        <Route path="/projects" element={<ProjectsPage />} />
        <Route path="/playground" element={<PlaygroundPage />} />
        <Route path="/jobs" element={<JobsPage />} />
        <Route path="/jobs/:id" element={<JobPage />} />
        <Route path="*" element={<Navigate to="/playground" replace />} />
      </Routes>
    </BrowserRouter>
  );
}
