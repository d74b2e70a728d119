// The narrow C API of the project's sentencepiece module (libtwb_spm.so). The module is loaded at run
// time with dlopen(RTLD_NOW|RTLD_LOCAL|RTLD_DEEPBIND) because sentencepiece's bundled protobuf and
// libtorch's protobuf crash when linked into one binary. Only plain C types cross this line.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TWB_SPM_API_VERSION 1

typedef struct twb_spm twb_spm;

/// API version the module was built with; the loader refuses a mismatch.
typedef int (*twb_spm_api_version_fn)(void);
/// Trains a model from a text file (one sentence per line). key=value options, '\x1f'-separated.
/// Returns 0 on success, else writes a message into err (NUL-terminated, at most err_len bytes).
typedef int (*twb_spm_train_fn)(const char* options, char* err, size_t err_len);
/// Loads a .model file; NULL on failure with a message in err.
typedef twb_spm* (*twb_spm_load_fn)(const char* path, char* err, size_t err_len);
typedef void (*twb_spm_free_fn)(twb_spm*);
/// Encodes UTF-8 text. Writes up to cap ids; returns how many ids the text needs (call again when larger).
typedef size_t (*twb_spm_encode_fn)(const twb_spm*, const char* text, size_t len, int32_t* ids, size_t cap);
/// Encodes UTF-8 text into pieces as sentencepiece spells them (an unknown stretch: its own text), each
/// followed by a NUL. Writes up to cap bytes; returns the bytes needed (call again when larger).
typedef size_t (*twb_spm_encode_pieces_fn)(const twb_spm*, const char* text, size_t len, char* out, size_t cap);
/// Decodes pieces given as encode_pieces writes them (len bytes); returns the byte length of the text.
typedef size_t (*twb_spm_decode_pieces_fn)(const twb_spm*, const char* pieces, size_t len, char* out, size_t cap);
/// Decodes ids. Writes up to cap bytes; returns the byte length of the text.
typedef size_t (*twb_spm_decode_fn)(const twb_spm*, const int32_t* ids, size_t n, char* out, size_t cap);
typedef int (*twb_spm_vocab_size_fn)(const twb_spm*);
/// The piece of an id (NUL-terminated, owned by the model). kind: 0 normal, 1 unknown, 2 control, 3 byte.
typedef const char* (*twb_spm_piece_fn)(const twb_spm*, int id, int* kind);
/// Version string of the linked sentencepiece.
typedef const char* (*twb_spm_version_fn)(void);

#ifdef __cplusplus
}
#endif
