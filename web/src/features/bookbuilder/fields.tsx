// Form controls bound to collection_data in the store, each with its label, hint and the spec §5
// message ('Please set', bounds) from the shared schema.
import { createContext, useContext, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionData } from '@uc/shared';
import { useBookBuilder } from './store';

type Key = keyof CollectionData;
export type Problems = Partial<Record<Key, string>>;

export const ProblemsContext = createContext<Problems>({});
/** Told when the user leaves a field (its problem may then show). */
export const TouchContext = createContext<(name: string) => void>(() => undefined);
/** Fields whose problem ("needs a title") waits until the field was left or Build was tried. */
export const SHOWN_WHEN_TOUCHED: ReadonlySet<string> = new Set(['title']);

/** The problem of a field, translated ('Please set' and the schema's messages are keys). */
export function useProblem(key: Key): string | undefined {
  const { t } = useTranslation();
  const p = useContext(ProblemsContext)[key];
  return p ? t(p) : undefined;
}

function Wrapper({ id, label, hint, problem, children, wide }: { id: string; label: string; hint?: string; problem?: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`flex flex-col gap-1 ${wide ? 'sm:col-span-2' : ''}`}>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-stone-600">
          {hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-problem`} className="text-sm font-semibold text-red-800">
          {problem}
        </p>
      )}
    </div>
  );
}

const control = 'rounded border border-stone-500 bg-white px-2 py-1.5 text-stone-900 aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-700';

function describedBy(id: string, hint?: string, problem?: string) {
  return [hint && `${id}-hint`, problem && `${id}-problem`].filter(Boolean).join(' ') || undefined;
}

export function NumberField({ name, label, hint, min, max, step = 1, wide }: { name: Key; label: string; hint?: string; min?: number; max?: number; step?: number; wide?: boolean }) {
  const id = useId();
  const value = useBookBuilder((s) => s.collection_data[name]);
  const setField = useBookBuilder((s) => s.setField);
  const problem = useProblem(name);
  return (
    <Wrapper id={id} label={label} hint={hint} problem={problem} wide={wide}>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        className={`${control} w-40`}
        value={value === undefined || value === null ? '' : String(value)}
        min={min}
        max={max}
        step={step}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy(id, hint, problem)}
        onChange={(e) => {
          const raw = e.target.value;
          setField(name, (raw === '' || !Number.isFinite(Number(raw)) ? undefined : Number(raw)) as never);
        }}
      />
    </Wrapper>
  );
}

export function TextField({ name, label, multiline, hint }: { name: Key; label: string; multiline?: boolean; hint?: string }) {
  const id = useId();
  const value = useBookBuilder((s) => s.collection_data[name]);
  const setField = useBookBuilder((s) => s.setField);
  const problem = useProblem(name);
  const touch = useContext(TouchContext);
  const props = {
    id,
    onBlur: () => touch(name),
    className: `${control} w-full`,
    value: typeof value === 'string' ? value : '',
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': describedBy(id, hint, problem),
    onChange: (e: { target: { value: string } }) => setField(name, e.target.value as never),
  };
  return (
    <Wrapper id={id} label={label} hint={hint} problem={problem} wide={multiline}>
      {multiline ? <textarea rows={3} {...props} /> : <input type="text" {...props} />}
    </Wrapper>
  );
}

/** A choice; options with a `group` follow the others in an <optgroup> of that label. */
export interface Option { value: string; label: string; group?: string; disabled?: boolean }

const optionOf = (o: Option) => (
  <option key={o.value} value={o.value} disabled={o.disabled}>
    {o.label}
  </option>
);

export function SelectField({ name, label, options, hint, numeric }: { name: Key; label: string; options: Option[]; hint?: string; numeric?: boolean }) {
  const id = useId();
  const value = useBookBuilder((s) => s.collection_data[name]);
  const setField = useBookBuilder((s) => s.setField);
  const problem = useProblem(name);
  const current = value === undefined || value === null ? '' : String(value);
  const known = options.some((o) => o.value === current);
  return (
    <Wrapper id={id} label={label} hint={hint} problem={problem}>
      <select
        id={id}
        className={`${control} max-w-full`}
        value={current}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy(id, hint, problem)}
        onChange={(e) => setField(name, (numeric ? Number(e.target.value) : e.target.value) as never)}
      >
        {!known && <option value={current}>{current || '—'}</option>}
        {options.filter((o) => !o.group).map(optionOf)}
        {[...new Set(options.map((o) => o.group).filter(Boolean))].map((g) => (
          <optgroup key={g} label={g}>
            {options.filter((o) => o.group === g).map(optionOf)}
          </optgroup>
        ))}
      </select>
    </Wrapper>
  );
}

export function CheckField({ name, label }: { name: Key; label: string }) {
  const id = useId();
  const value = useBookBuilder((s) => s.collection_data[name]);
  const setField = useBookBuilder((s) => s.setField);
  return (
    <div className="flex items-start gap-2">
      <input id={id} type="checkbox" className="mt-1 h-4 w-4 accent-amber-900" checked={value === true} onChange={(e) => setField(name, e.target.checked as never)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
