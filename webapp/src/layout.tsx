/**
 * The frame of every signed-in page: a skip link, the header (banner
 * landmark: the organization, the member, a link to their password page and a sign-out button)
 * and the main navigation (Playground, Jobs, Vehicles, Templates, Projects and, for the owner,
 * API keys, Members, Webhooks, Account). Pages render their own `<main id="main">`
 * (ui/page.tsx) through the Outlet.
 */
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { useSignedIn, useSession } from './session.js';

/** One entry of the main navigation. */
interface NavEntry {
  to: string;
  label: string;
  ownerOnly?: boolean;
}

/** The main navigation, in order; owner-only entries are hidden from members. */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { to: '/playground', label: 'Playground' },
  { to: '/jobs', label: 'Jobs' },
  { to: '/vehicles', label: 'Vehicles' },
  { to: '/templates', label: 'Templates' },
  { to: '/projects', label: 'Projects' },
  { to: '/console/keys', label: 'API keys', ownerOnly: true },
  { to: '/console/members', label: 'Members', ownerOnly: true },
  { to: '/console/webhooks', label: 'Webhooks', ownerOnly: true },
  { to: '/console/account', label: 'Account', ownerOnly: true },
];

/** Header, navigation and the page below them; only inside RequireSession. */
export function Layout() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const isOwner = session.user.role === 'owner';
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">Load planner</span>
        <span className="org" aria-label="Organization">
          {session.organization.name}
        </span>
        <span className="member">
          <span aria-label="Signed in as">{session.user.name}</span>
          <span className="role">{session.user.role}</span>
        </span>
        <Link to="/password" className="header-link">
          Your password
        </Link>
        <button
          type="button"
          className="secondary"
          onClick={async () => {
            await signOut().catch(() => undefined);
            void navigate('/sign-in', { replace: true });
          }}
        >
          Sign out
        </button>
      </header>
      <nav className="app-nav" aria-label="Main">
        <ul>
          {NAV_ENTRIES.filter((e) => isOwner || !e.ownerOnly).map((e) => (
            <li key={e.to}>
              <NavLink to={e.to} end={e.to !== '/jobs'}>
                {e.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
