// Helpers of the curation component tests: a fake drag payload, keyboard travel, the boxes' reset.
import { fireEvent } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { BOXES } from './boxes';
import { useMergeBoxes, useNotice } from './store';
import type { MergeBoxKind } from './api';

/** A DataTransfer stand-in (jsdom has none) recording what a drag source sets. */
export function fakeDataTransfer(init: Record<string, string> = {}) {
  const data: Record<string, string> = { ...init };
  return {
    data,
    setData: (k: string, v: string) => {
      data[k] = v;
    },
    getData: (k: string) => data[k] ?? '',
    dropEffect: 'none',
    effectAllowed: 'all',
    types: [] as string[],
  };
}

/** Drags from a handle and drops on a target, like a mouse would (native drag and drop events). */
export function dragAndDrop(source: Element, target: Element) {
  const dt = fakeDataTransfer();
  fireEvent.dragStart(source, { dataTransfer: dt });
  fireEvent.dragOver(target, { dataTransfer: dt });
  fireEvent.drop(target, { dataTransfer: dt });
  return dt;
}

/** Drops a payload (the old client's keys) on a target. */
export function dropPayload(target: Element, payload: Record<string, string>) {
  const dt = fakeDataTransfer(payload);
  fireEvent.dragOver(target, { dataTransfer: dt });
  fireEvent.drop(target, { dataTransfer: dt });
}

/** Presses Tab until `target` has focus (fails if it is not reachable by keyboard). */
export async function tabTo(user: UserEvent, target: HTMLElement, max = 200) {
  for (let i = 0; i < max; i++) {
    if (document.activeElement === target) return;
    await user.tab();
  }
  throw new Error(`Not reachable with Tab: ${target.outerHTML.slice(0, 120)}`);
}

export function resetBoxes() {
  for (const k of Object.keys(BOXES) as MergeBoxKind[]) useMergeBoxes.getState().clear(k);
  useNotice.setState({ notice: null });
  sessionStorage.clear();
}

export const bodyOf = (init?: RequestInit): unknown => (init?.body ? JSON.parse(String(init.body)) : undefined);
