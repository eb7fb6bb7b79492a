// A small map to set a library's place with a click (or by dragging its pin): a library without a place
// is not on the readers' map. The latitude and longitude fields beside it stay the keyboard's way.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GeoJSON, MapContainer, Marker, TileLayer, useMapEvents } from 'react-leaflet';
import type { LeafletMouseEvent, Marker as LeafletMarker } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import '../map/map.css';
import { useGeneral } from '../../api/hooks';
import { BASEMAP_ATTRIBUTION, countriesGeoJson } from '../map/basemap';
import { libraryIcon } from '../map/icons';
import { tileSetting } from '../map/settings';

/** Six decimals: about 10 cm, what the fields accept. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

function ClickToPlace({ onPick }: { onPick: (lat: number, lng: number) => void }) {
  useMapEvents({ click: (e: LeafletMouseEvent) => onPick(round6(e.latlng.lat), round6(((e.latlng.lng + 540) % 360) - 180)) });
  return null;
}

export default function PlacePicker({ latitude, longitude, libraryType, onPick }: {
  latitude: string; longitude: string; libraryType: string; onPick: (lat: number, lng: number) => void;
}) {
  const { t } = useTranslation();
  const tiles = tileSetting(useGeneral().data);
  const [basemap] = useState(() => (tiles ? null : countriesGeoJson()));
  const lat = Number.parseFloat(latitude);
  const lng = Number.parseFloat(longitude);
  const placed = Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
  const icon = useMemo(() => libraryIcon(libraryType || 'digital', t('The library’s place')), [libraryType, t]);
  return (
    <div className="md:col-span-2" role="group" aria-label={t('Place on the map')} aria-describedby="place-picker-hint">
      <p id="place-picker-hint" className="mb-1 text-sm text-stone-700">
        {placed ? t('Click the map or drag the pin to move the library’s place.') : t('This library is not on the map yet: click the map at its place, or type its latitude and longitude.')}
      </p>
      <MapContainer
        className="uc-map h-72 w-full rounded border border-stone-300"
        center={placed ? [lat, lng] : [25, 10]}
        zoom={placed ? 6 : 1}
        minZoom={0}
        maxZoom={tiles ? 18 : 12}
      >
        {tiles ? (
          <TileLayer url={tiles.url} attribution={tiles.attribution || undefined} />
        ) : (
          basemap && (
            <GeoJSON data={basemap} interactive={false} attribution={BASEMAP_ATTRIBUTION} style={{ color: '#78716c', weight: 0.6, fillColor: '#f5f5f4', fillOpacity: 1 }} />
          )
        )}
        <ClickToPlace onPick={onPick} />
        {placed && (
          <Marker
            position={[lat, lng]}
            icon={icon}
            draggable
            eventHandlers={{
              dragend: (e) => {
                const p = (e.target as LeafletMarker).getLatLng();
                onPick(round6(p.lat), round6(p.lng));
              },
            }}
          />
        )}
      </MapContainer>
    </div>
  );
}
