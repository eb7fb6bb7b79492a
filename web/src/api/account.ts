// The current user (GET /auth/user) and the calls that change it. Logging in or out changes what the
// server shows (private libraries, exclusions, permissions), so every cached answer is refetched.
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AuthUser } from '@uc/shared';
import { api, isApiError } from './client';
import { FIVE_MINUTES } from './hooks';

export const accountKeys = {
  user: ['auth', 'user'] as const,
  userMenuPages: (lang: string) => ['pages', 'user_menu', lang] as const,
};

export const ANONYMOUS_USER: AuthUser = {
  logged_in: null,
  message: null,
  email: '',
  is_superuser: false,
  is_library_admin: false,
  can_merge: false,
  can_set_exclusions: false,
  libraries: [],
};

/**
 * The one place that knows who is logged in. `user` is null for anonymous visitors (and while unknown);
 * `isPending` is true until the first user check has answered.
 */
export function useCurrentUser() {
  const query = useQuery({
    queryKey: accountKeys.user,
    queryFn: ({ signal }) => api.authUser(signal),
    staleTime: FIVE_MINUTES,
  });
  const data = query.data;
  return {
    user: data && data.logged_in ? data : null,
    isPending: query.isPending,
    refetch: query.refetch,
  };
}

/** Stores the new user and refetches every other cached answer (search results, entries, libraries…). */
export function userChanged(queryClient: QueryClient, user: AuthUser | null): void {
  if (user) queryClient.setQueryData(accountKeys.user, user);
  // Not awaited: the header answers at once while the pages refetch.
  void queryClient.invalidateQueries({
    predicate: (q) => !(user && q.queryKey[0] === accountKeys.user[0]),
  });
}

/** The login call; the failure text is the server's error, else 'Failed login' (passed in translated). */
export function loginErrorText(err: unknown, fallback: string): string {
  return (isApiError(err) && err.serverError) || fallback;
}

/** The user-menu pages of a language (spec §2 Header), asked for logged-in users only. */
export function useUserMenuPages(lang: string, enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.userMenuPages(lang),
    queryFn: ({ signal }) => api.userMenuPages(lang, signal),
    select: (d) => d.pages,
    enabled,
  });
}

export function useAccountActions() {
  const queryClient = useQueryClient();
  return {
    async login(username: string, password: string): Promise<AuthUser> {
      const user = await api.login({ username, password });
      if (!user.logged_in) throw new Error('');
      userChanged(queryClient, user);
      return user;
    },
    async logout(): Promise<void> {
      try {
        await api.logout();
      } finally {
        queryClient.setQueryData(accountKeys.user, ANONYMOUS_USER);
        userChanged(queryClient, null);
      }
    },
    async requestReset(username: string): Promise<string> {
      const res = await api.resetPassword({ operation: 'send-link', username });
      return res.message;
    },
    async resetPassword(username: string, token: string, password: string): Promise<AuthUser> {
      const user = await api.resetPassword({ operation: 'reset', username, token, password });
      if (user.logged_in) userChanged(queryClient, user);
      return user;
    },
  };
}
