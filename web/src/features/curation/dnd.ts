// The drag payload of the old client (native HTML5 drag and drop): 'ID', 'Label' and 'Merge' (the type),
// so items can be dragged from results, facets, author cards and between boxes.
import type { DragEvent } from 'react';
import type { BoxItem } from './api';

export function setDragItem(e: DragEvent, item: BoxItem): void {
  e.dataTransfer.setData('ID', String(item.id));
  e.dataTransfer.setData('Label', item.label);
  e.dataTransfer.setData('Merge', item.type);
  // Some browsers start a drag only with a standard type.
  e.dataTransfer.setData('text/plain', item.label);
  e.dataTransfer.effectAllowed = 'copy';
}

/** What was dropped; missing or malformed parts stay undefined (the box then says 'I cannot do that'). */
export function getDragItem(e: DragEvent): Partial<BoxItem> {
  const id = e.dataTransfer.getData('ID');
  const label = e.dataTransfer.getData('Label');
  const type = e.dataTransfer.getData('Merge');
  return {
    id: /^\d{1,10}$/.test(id) ? Number(id) : undefined,
    label: label || undefined,
    type: type === 'author' || type === 'entry' ? type : undefined,
  };
}
