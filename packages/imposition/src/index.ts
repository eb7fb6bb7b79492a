export { IMPOSITION_SCHEMAS, SCHEMAS, isImpositionSchema, type ImpositionSchema, type Margins, type Rotation, type SchemaInfo } from './schemas.ts';
export { ImpositionError, OPTIMIZED_RANGE, optimizeSignature, parseSignature, planSignatures, type SignatureOption, type SignaturePlan, type SignatureRange } from './signature.ts';
export { pageOrder, validateImposeOptions, cropPassSequence, type ImposeOptions, type PageOrder, type SheetSide, type CropPassOrder } from './order.ts';
export { paperSizeMm, paperSizePt, measureMm, mmToPt, round3, NAMED_PAPER_SIZES, SPEC_PAPER_SIZES, PT_PER_MM } from './paper.ts';
export { cropLayout, cropModuleSignatures, creepUnits, CROP_DEFAULTS, type CropLayoutOptions, type CropPageLayout, type Mark, type MarkName } from './cropmarks.ts';
export { impose, type ImposeResult, type ImposeExtraOptions } from './impose.ts';
export { plain as copyPdfValue } from './tags.ts';
export { sheetLayout, sheetName, fittingCropPaper, homePrinterPaper, CROP_MARK_ROOM_MM, SHEET_NAME_TOLERANCE_MM, type Size, type SheetLayout } from './sheet.ts';
