import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no such page in the dashboard. <Link to="/">Go to your workspaces</Link>.</p>
    </>
  );
}
