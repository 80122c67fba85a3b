import { ATTENDANT_TOOLS, isAdmin, mayUseTool, parseAttendantTools, type AttendantTool } from '@wadesk/contracts';
import { useMemo } from 'react';
import { useAuth } from '../auth/auth-context';
import { useSettings } from './settings-query';

export interface ToolAccess {
  /** The tools the admins open to attendants (the setting attendantTools); empty while unknown. */
  tools: ReadonlySet<AttendantTool>;
  /** Whether the signed-in user may use the tool: admins always, attendants when attendantTools lists it. */
  may: (tool: AttendantTool) => boolean;
  isLoading: boolean;
}

const NONE: ReadonlySet<AttendantTool> = new Set();

/**
 * What the signed-in user may use of the tools (issue 32); the server decides too. The layout keeps the settings
 * live (useSettingsLiveUpdates); this module stays free of the socket, for the route guards of the first load.
 */
export function useToolAccess(): ToolAccess {
  const { user } = useAuth();
  const { data: settings, isLoading } = useSettings();
  const value = settings?.find((s) => s.key === 'attendantTools')?.value;
  return useMemo(() => {
    // A server older than the setting sends none: every tool, the specification's rule.
    const tools = settings ? parseAttendantTools(value ?? ATTENDANT_TOOLS.join(',')) : NONE;
    return { tools, isLoading, may: (tool: AttendantTool) => (isAdmin(user) ? true : mayUseTool(user, tools, tool)) };
  }, [settings, value, isLoading, user]);
}
