import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import { CircleMarker, GeoJSON, MapContainer, Marker, Popup, TileLayer, Tooltip, ZoomControl, useMap, useMapEvents } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import './map.css';
import type { LatLng, LibraryPublic } from '../../lib/shared';
import { LibraryType } from '../libraries/LibraryCard';
import { holdingsHref, libraryPlace, libraryTypeLabel } from '../libraries/libraryText';
import { BASEMAP_ATTRIBUTION, countriesGeoJson } from './basemap';
import { boxAround, type Box, type Located } from './bounds';
import { clusterIcon, libraryIcon } from './icons';
import { MarkerClusterGroup } from './MarkerClusterGroup';
import type { TileSetting } from './settings';

export type MapLibrary = Located<LibraryPublic>;

export interface FocusRequest {
  id: number;
  /** Changes on every request, so asking twice for the same library works. */
  seq: number;
}

/** Fit the view around some points ("Near me": the reader and the nearest libraries). */
export interface FitRequest {
  seq: number;
  points: LatLng[];
}

interface Props {
  libraries: MapLibrary[];
  /** Entries held by each library (search mode): shown on the markers and in the popups. */
  counts?: ReadonlyMap<number, number>;
  /** Link of a library's held results (search mode). */
  resultsHref?: (id: number) => string;
  tiles: TileSetting | null;
  label: string;
  onBounds: (box: Box) => void;
  focus: FocusRequest | null;
  /** Moves the view around these points (each new seq once). */
  fitTo?: FitRequest | null;
  /** The reader's position ("Near me"), marked on the map. */
  here?: LatLng | null;
  /** Tailwind height classes of the map box (default: the full-size map). */
  sizeClass?: string;
  /** Zoom for a single library (default 6). */
  singleZoom?: number;
}

/** The full-size map's height classes (also the size of the page's placeholder while it loads). */
export const MAP_SIZE = 'h-[60vh] max-h-[40rem] min-h-80';

const WORLD: L.LatLngBoundsExpression = [
  [-85, -200],
  [85, 200],
];

const toBox = (b: L.LatLngBounds): Box => ({ south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() });

/** Fits the view to the libraries whenever the set changes, and reports every view change. */
function ViewSync({ libraries, onBounds, singleZoom }: { libraries: MapLibrary[]; onBounds: (box: Box) => void; singleZoom: number }) {
  const map = useMap();
  const key = libraries.map((l) => l.id).join(',');
  const report = useCallback(() => onBounds(toBox(map.getBounds())), [map, onBounds]);
  useMapEvents({ moveend: report, zoomend: report });
  useEffect(() => {
    const box = boxAround(libraries);
    // No animation: the view is placed, not flown to (and a page left at once has nothing pending).
    if (!box) map.setView([25, 10], 2, { animate: false });
    else if (libraries.length === 1) map.setView([box.south, box.west], singleZoom, { animate: false });
    else map.fitBounds([[box.south, box.west], [box.north, box.east]], { padding: [40, 40], maxZoom: 6, animate: false });
    report();
    // The set of libraries (key) decides; the objects themselves may be new on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

/** Fits the view around the requested points (after the libraries' own fit, which it overrides). */
function FitPoints({ fitTo }: { fitTo: FitRequest | null }) {
  const map = useMap();
  useEffect(() => {
    if (!fitTo || fitTo.points.length === 0) return;
    const box = boxAround(fitTo.points)!;
    if (fitTo.points.length === 1) map.setView([box.south, box.west], 10, { animate: false });
    else map.fitBounds([[box.south, box.west], [box.north, box.east]], { padding: [40, 40], maxZoom: 12, animate: false });
  }, [map, fitTo]);
  return null;
}

/**
 * Leaflet ends a zoom animation on a 250 ms timer that it does not cancel when the map is removed; the
 * timer then reads the removed panes and throws. Leaving the page mid-zoom must not, so the animation
 * is marked over when the map unloads (the timer then returns at once) and no view events follow.
 */
function SettleOnUnload() {
  const map = useMap();
  useEffect(() => {
    const settle = () => {
      (map as unknown as { _animatingZoom?: boolean })._animatingZoom = false;
      map.off();
    };
    // Not removed on cleanup: the map's own removal (which fires unload) may run after this cleanup.
    map.once('unload', settle);
  }, [map]);
  return null;
}

/** Names the map for assistive technology and keeps keyboard focus sensible around popups. */
function A11y({ label }: { label: string }) {
  const map = useMap();
  useEffect(() => {
    const c = map.getContainer();
    c.setAttribute('role', 'region');
    c.setAttribute('aria-label', label);
  }, [map, label]);
  useEffect(() => {
    let opener: HTMLElement | null = null;
    const onOpen = (e: L.PopupEvent) => {
      const active = document.activeElement as HTMLElement | null;
      const source = (e.popup as unknown as { _source?: L.Marker })._source;
      const icon = source?.getElement?.();
      if (!icon || active !== icon) return;
      // Opened from the keyboard: move into the card (its content renders on the next tick).
      opener = icon;
      setTimeout(() => {
        e.popup.getElement()?.querySelector<HTMLElement>('.uc-popup a[href]')?.focus();
      }, 0);
    };
    const onClose = (e: L.PopupEvent) => {
      const el = e.popup.getElement();
      const active = document.activeElement;
      if (opener && document.contains(opener) && (!active || active === document.body || el?.contains(active))) opener.focus();
      opener = null;
    };
    // Escape closes an open card wherever the focus is inside the map (Leaflet only listens while the
    // map container itself has the focus).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      const open = (map as unknown as { _popup?: L.Popup })._popup;
      if (!open || !map.hasLayer(open)) return;
      const source = (open as unknown as { _source?: L.Marker })._source;
      const icon = source?.getElement?.();
      if (icon && !opener && open.getElement()?.contains(document.activeElement)) opener = icon;
      e.preventDefault();
      e.stopPropagation();
      map.closePopup();
    };
    const container = map.getContainer();
    container.addEventListener('keydown', onKey);
    map.on('popupopen', onOpen);
    map.on('popupclose', onClose);
    return () => {
      container.removeEventListener('keydown', onKey);
      map.off('popupopen', onOpen);
      map.off('popupclose', onClose);
    };
  }, [map]);
  return null;
}

/** Shows one library on request: zooms into its cluster, opens its card and focuses it. */
function FocusLibrary({
  focus,
  markers,
  group,
}: {
  focus: FocusRequest | null;
  markers: React.RefObject<Map<number, L.Marker>>;
  group: React.RefObject<L.MarkerClusterGroup | null>;
}) {
  useEffect(() => {
    if (!focus) return;
    const marker = markers.current.get(focus.id);
    const g = group.current;
    if (!marker || !g) return;
    g.zoomToShowLayer(marker, () => {
      marker.openPopup();
      setTimeout(() => marker.getPopup()?.getElement()?.querySelector<HTMLElement>('.uc-popup a[href]')?.focus(), 0);
    });
  }, [focus, markers, group]);
  return null;
}

function LibraryMap({ libraries, counts, resultsHref, tiles, label, onBounds, focus, fitTo = null, here = null, sizeClass = MAP_SIZE, singleZoom = 6 }: Props) {
  const { t, i18n } = useTranslation();
  const markers = useRef(new Map<number, L.Marker>());
  const group = useRef<L.MarkerClusterGroup | null>(null);
  const [basemap] = useState(() => (tiles ? null : countriesGeoJson()));

  const iconCreateFunction = useCallback(
    (cluster: L.MarkerCluster) => {
      const n = cluster.getChildCount();
      return clusterIcon(n, t('cluster_label', { count: n }));
    },
    [t],
  );
  const icons = useMemo(() => {
    const m = new Map<number, L.DivIcon>();
    for (const lib of libraries) {
      const count = counts?.get(lib.id);
      const name =
        count !== undefined
          ? `${lib.name} (${t(libraryTypeLabel(lib.library_type))}; ${t('entries_found', { count })})`
          : `${lib.name} (${t(libraryTypeLabel(lib.library_type))})`;
      m.set(lib.id, libraryIcon(lib.library_type, name, count));
    }
    return m;
  }, [libraries, counts, t]);

  return (
    <MapContainer
      className={`uc-map ${sizeClass} w-full rounded-lg border border-stone-300`}
      center={[25, 10]}
      zoom={2}
      minZoom={0}
      maxZoom={tiles ? 18 : 12}
      maxBounds={WORLD}
      maxBoundsViscosity={1}
      zoomControl={false}
      worldCopyJump={false}
    >
      <SettleOnUnload />
      <A11y label={label} />
      <ZoomControl position="topleft" zoomInTitle={t('Zoom in')} zoomOutTitle={t('Zoom out')} />
      {tiles ? (
        <TileLayer url={tiles.url} attribution={tiles.attribution || undefined} />
      ) : (
        basemap && (
          <GeoJSON
            data={basemap}
            interactive={false}
            attribution={BASEMAP_ATTRIBUTION}
            style={{ color: '#78716c', weight: 0.6, fillColor: '#f5f5f4', fillOpacity: 1 }}
          />
        )
      )}
      <MarkerClusterGroup
        ref={group}
        showCoverageOnHover={false}
        maxClusterRadius={40}
        spiderfyOnMaxZoom
        iconCreateFunction={iconCreateFunction}
      >
        {libraries.map((lib) => {
          const count = counts?.get(lib.id);
          const place = libraryPlace(lib, i18n.language);
          const holdings = lib.entries_count;
          return (
            <Marker
              key={lib.id}
              position={[lib.latitude, lib.longitude]}
              icon={icons.get(lib.id)}
              title={lib.name}
              riseOnHover
              ref={(m) => {
                if (m) markers.current.set(lib.id, m);
                else markers.current.delete(lib.id);
              }}
            >
              <Popup>
                <div className="uc-popup">
                  <p className="text-base font-semibold">{lib.name}</p>
                  <p>
                    <LibraryType type={lib.library_type} />
                  </p>
                  {place && <p className="text-sm">{place}</p>}
                  {count !== undefined && resultsHref && (
                    <p>
                      <Link to={resultsHref(lib.id)} className="link">
                        {t('entries_found', { count })}
                      </Link>
                    </p>
                  )}
                  <p>
                    <Link to={`/library/details/${lib.id}`} className="link">
                      {t('Library details')}
                    </Link>
                  </p>
                  {/* After the details link, which keeps the focus a card opened from the keyboard gets. */}
                  {typeof holdings === 'number' && (
                    <p>
                      <Link to={holdingsHref(lib.id)} className="link">
                        {t('library_holdings', { count: holdings })}
                      </Link>
                    </p>
                  )}
                </div>
              </Popup>
            </Marker>
          );
        })}
      </MarkerClusterGroup>
      {here && (
        <CircleMarker
          center={[here.latitude, here.longitude]}
          radius={8}
          pathOptions={{ color: '#1d4ed8', weight: 3, fillColor: '#60a5fa', fillOpacity: 0.9 }}
          interactive
        >
          <Tooltip>{t('You are here')}</Tooltip>
        </CircleMarker>
      )}
      <ViewSync libraries={libraries} onBounds={onBounds} singleZoom={singleZoom} />
      <FitPoints fitTo={fitTo} />
      <FocusLibrary focus={focus} markers={markers} group={group} />
    </MapContainer>
  );
}

/** Memoised: the page re-renders on every pan (the list in view), the map must not. */
export default memo(LibraryMap);
