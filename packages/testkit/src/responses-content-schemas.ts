import { closedObject, nullable, ref, taggedUnion, type JsonSchema } from './json-schema-builders.js';

/*
 * Content parts of messages and tool outputs, written from the Responses API reference (InputTextContentParam,
 * InputImageContentParamAutoParam, InputFileContentParam, OutputTextContent, RefusalContent).
 */

const cacheBreakpoint = nullable(closedObject({ mode: { const: 'explicit' } }, ['mode']));

/** Definitions of the content parts. */
export function contentDefinitions(): Record<string, JsonSchema> {
  return {
    InputText: closedObject({ type: { const: 'input_text' }, text: { type: 'string', maxLength: 10_485_760 }, prompt_cache_breakpoint: cacheBreakpoint }, ['type', 'text']),
    InputImage: closedObject(
      {
        type: { const: 'input_image' },
        image_url: nullable({ type: 'string', maxLength: 20_971_520 }),
        file_id: nullable({ type: 'string' }),
        detail: nullable({ enum: ['low', 'high', 'auto', 'original'] }),
        prompt_cache_breakpoint: cacheBreakpoint,
      },
      ['type'],
    ),
    InputFile: closedObject(
      {
        type: { const: 'input_file' },
        file_id: nullable({ type: 'string' }),
        filename: nullable({ type: 'string' }),
        file_data: nullable({ type: 'string', maxLength: 73_400_320 }),
        file_url: nullable({ type: 'string' }),
        detail: { enum: ['auto', 'low', 'high'] },
        prompt_cache_breakpoint: cacheBreakpoint,
      },
      ['type'],
    ),
    // `annotations` and `logprobs` come with every output_text the API returns; a hand-written one may leave them out.
    OutputText: closedObject(
      { type: { const: 'output_text' }, text: { type: 'string' }, annotations: { type: 'array', items: { type: 'object' } }, logprobs: { type: 'array', items: { type: 'object' } } },
      ['type', 'text'],
    ),
    Refusal: closedObject({ type: { const: 'refusal' }, refusal: { type: 'string' } }, ['type', 'refusal']),
    InputContentPart: taggedUnion({ described: { input_text: 'InputText', input_image: 'InputImage', input_file: 'InputFile' } }),
    // An assistant message carries what the model wrote: output_text and refusal parts, never input parts.
    OutputContentPart: taggedUnion({ described: { output_text: 'OutputText', refusal: 'Refusal' } }),
    InputContent: { anyOf: [{ type: 'string' }, { type: 'array', items: ref('InputContentPart') }] },
    OutputContent: { anyOf: [{ type: 'string' }, { type: 'array', items: ref('OutputContentPart') }] },
  };
}
