import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { API_BASE } from '../../../shared/constants.ts';
import {
  LIVE_EVENTS_PATH,
  LIVE_POLL_INTERVAL_MS,
  LIVE_RECONNECT_TOPIC,
  LIVE_TOPICS,
  type LiveMessage,
} from '../../../shared/live-events.ts';

// The app's one live channel (server-sent events). Every message names a topic; the queries whose key
// starts with it are refetched, so a screen shows a new notification or ticket answer without a reload
// (any feature's queries take part by their key alone). While the stream is down the live topics are
// refetched every LIVE_POLL_INTERVAL_MS instead, and the stream is opened again. A server that shuts
// down (a restart) ends the stream with a "reconnect" message and a retry time: the browser reconnects
// by itself after that time, through the load balancer to another server; nothing is shown to the
// member, and what happened in between is fetched once the new stream opens.

const RECONNECT_MIN_MS = 5_000;
const RECONNECT_MAX_MS = 60_000;

export function useLiveChannel(enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let pollTimer: ReturnType<typeof setInterval> | undefined;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let reconnectMs = RECONNECT_MIN_MS;
    let wasDown = false;
    /** The server said it is closing the stream for a restart: the error that follows is expected. */
    let closingForRestart = false;
    let stopped = false;

    const refetch = (topic: string) => {
      if (topic === '*') {
        for (const t of LIVE_TOPICS) void queryClient.invalidateQueries({ queryKey: [t] });
      } else void queryClient.invalidateQueries({ queryKey: [topic] });
    };
    const startPolling = () => {
      wasDown = true;
      pollTimer ??= setInterval(() => refetch('*'), LIVE_POLL_INTERVAL_MS);
    };
    const stopPolling = () => {
      clearInterval(pollTimer);
      pollTimer = undefined;
    };

    const connect = () => {
      if (stopped) return;
      source = new EventSource(`${API_BASE}${LIVE_EVENTS_PATH}`, { withCredentials: true });
      source.onopen = () => {
        reconnectMs = RECONNECT_MIN_MS;
        stopPolling();
        // Whatever happened while the stream was down is fetched once now.
        if (wasDown) refetch('*');
        wasDown = false;
      };
      source.onmessage = (event: MessageEvent<string>) => {
        let message: LiveMessage;
        try {
          message = JSON.parse(event.data) as LiveMessage;
        } catch {
          return;
        }
        if (message.topic === LIVE_RECONNECT_TOPIC) {
          closingForRestart = true;
          // Events published while no stream is open are missed: refetch once the new one opens.
          wasDown = true;
        } else if (message.topic !== 'ready') refetch(message.topic);
      };
      source.onerror = () => {
        // The browser is already reconnecting (after the server's retry time): no polling meanwhile;
        // if that attempt fails too, the next error starts it.
        if (closingForRestart && source?.readyState === EventSource.CONNECTING) {
          closingForRestart = false;
          return;
        }
        closingForRestart = false;
        startPolling();
        // The browser retries by itself after a network error; after a refusal it gives up, so we do.
        if (source?.readyState === EventSource.CLOSED) {
          source = undefined;
          clearTimeout(reconnectTimer);
          reconnectTimer = setTimeout(connect, reconnectMs);
          reconnectMs = Math.min(RECONNECT_MAX_MS, reconnectMs * 2);
        }
      };
    };
    connect();
    return () => {
      stopped = true;
      source?.close();
      stopPolling();
      clearTimeout(reconnectTimer);
    };
  }, [enabled, queryClient]);
}
