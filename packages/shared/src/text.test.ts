import { describe, expect, it } from 'vitest';
import { foldedIncludes, searchForms, transliterate } from './text.ts';

describe('transliterate', () => {
  it('writes Cyrillic and Greek in the Latin letters readers type', () => {
    expect(transliterate('Пётр Кропоткин')).toBe('petr kropotkin');
    expect(transliterate('Фёдор Достоевский')).toBe('fedor dostoevsky');
    expect(transliterate('Лев Толстой')).toBe('lev tolstoy');
    expect(transliterate('Взаимопомощь')).toBe('vzaimopomoshch');
    expect(transliterate('Петар II Петровић Његош')).toBe('petar ii petrovic njegos');
    expect(transliterate('Μιχαήλ Μπακούνιν')).toBe('michail bakounin');
    expect(transliterate('Κορνήλιος Καστοριάδης')).toBe('kornilios kastoriadis');
    expect(transliterate('Ελευθερία, Ευαγγέλιο')).toBe('eleftheria, evangelio');
    expect(transliterate("L'Entraide")).toBe('l entraide');
  });

  it('gives a second search form only to text in another script', () => {
    expect(searchForms('Libertà')).toEqual(['liberta']);
    expect(searchForms('Кропоткин')).toEqual(['кропоткин', 'kropotkin']);
  });

  it('lets the web filters match across scripts', () => {
    expect(foldedIncludes('Κοινωνική Βιβλιοθήκη Πυξίδα', 'vivliothiki')).toBe(true);
    expect(foldedIncludes('Peter Kropotkin', 'Кропоткин')).toBe(true);
    expect(foldedIncludes('Biblioteca Libertaria', 'libertà')).toBe(true);
    expect(foldedIncludes('Biblioteca Libertaria', 'anarchy')).toBe(false);
  });
});
