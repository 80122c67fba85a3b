import type { AttendantTool } from '@wadesk/contracts';
import { Navigate, Outlet } from 'react-router-dom';
import { FullPageLoader } from '../auth/route-guards';
import { useToolAccess } from './use-tool-access';

/**
 * A tool's page (issue 32): admins always; an attendant while the setting attendantTools lists the tool, otherwise
 * the path goes to / like an unknown one (the drawer does not show it either, and the server answers 403).
 */
export function ToolRoute({ tool }: { tool: AttendantTool }) {
  const { may, isLoading } = useToolAccess();
  if (isLoading) return <FullPageLoader />;
  return may(tool) ? <Outlet /> : <Navigate to="/" replace />;
}
