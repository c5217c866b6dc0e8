//! Parquet files that carry batchgen's metadata but were rewritten by another tool: columns of
//! other types are refused naming the column, the common codecs are read (a codec this build
//! lacks is refused naming it), and strings from the file reach the terminal escaped.

use crate::common;

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray, UInt32Array};
use arrow_schema::{DataType, Field, Schema};
use common::batchgen;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use predicates::str::contains;

/// Rewrite `src` into `dst`, each column passed through `f`, keeping the key-value metadata.
fn rewrite(
    src: &Path,
    dst: &Path,
    codec: Compression,
    f: &dyn Fn(&Field, &ArrayRef) -> (Field, ArrayRef),
) {
    let b = ParquetRecordBatchReaderBuilder::try_new(File::open(src).unwrap()).unwrap();
    let kv: Vec<KeyValue> = b
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .cloned()
        .unwrap_or_default();
    let schema = b.schema().clone();
    let mut writer = None;
    for batch in b.build().unwrap() {
        let batch = batch.unwrap();
        let (fields, cols): (Vec<Field>, Vec<ArrayRef>) = schema
            .fields()
            .iter()
            .zip(batch.columns())
            .map(|(fl, c)| f(fl, c))
            .unzip();
        let out = RecordBatch::try_new(Arc::new(Schema::new(fields)), cols).unwrap();
        let w = writer.get_or_insert_with(|| {
            let props = WriterProperties::builder()
                .set_compression(codec)
                .set_key_value_metadata(Some(kv.clone()))
                .build();
            ArrowWriter::try_new(File::create(dst).unwrap(), out.schema(), Some(props)).unwrap()
        });
        w.write(&out).unwrap();
    }
    writer.unwrap().close().unwrap();
}

fn made(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("m.parquet");
    batchgen()
        .args([
            "--algo",
            "kruskal,wilson",
            "--size",
            "6x6",
            "--count",
            "20",
            "-q",
        ])
        .arg("--out")
        .arg(&p)
        .assert()
        .success();
    p
}

fn same(f: &Field, c: &ArrayRef) -> (Field, ArrayRef) {
    (f.clone(), c.clone())
}

#[test]
fn columns_of_other_types_are_refused_naming_the_column() {
    let d = tempfile::tempdir().unwrap();
    let src = made(d.path());
    // Every column as text: refused at the first numeric column.
    let all_text = d.path().join("all_text.parquet");
    rewrite(&src, &all_text, Compression::UNCOMPRESSED, &|f, c| {
        let text = arrow_cast_to_strings(c);
        (
            Field::new(f.name(), DataType::Utf8, false),
            Arc::new(StringArray::from(text)) as ArrayRef,
        )
    });
    batchgen()
        .arg("summary")
        .arg(&all_text)
        .assert()
        .code(2)
        .stderr(contains(
            "column 'width' is Utf8, where batchgen writes UInt32",
        ));
    // width as a signed 32-bit integer.
    let int32 = d.path().join("int32.parquet");
    rewrite(&src, &int32, Compression::UNCOMPRESSED, &|f, c| {
        if f.name() != "width" {
            return same(f, c);
        }
        let u = c.as_any().downcast_ref::<UInt32Array>().unwrap();
        let v: Int32Array = u.iter().map(|x| x.map(|x| x as i32)).collect();
        (
            Field::new("width", DataType::Int32, false),
            Arc::new(v) as ArrayRef,
        )
    });
    for cmd in ["summary", "plot"] {
        let mut c = batchgen();
        c.arg(cmd).arg(&int32);
        if cmd == "plot" {
            c.arg("-o").arg(d.path().join("pl"));
        }
        c.assert().code(2).stderr(contains(
            "column 'width' is Int32, where batchgen writes UInt32",
        ));
    }
}

/// Every value of a column rendered as text.
fn arrow_cast_to_strings(c: &ArrayRef) -> Vec<String> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, UInt32Type, UInt64Type};
    (0..c.len())
        .map(|i| match c.data_type() {
            DataType::Utf8 => c.as_string::<i32>().value(i).to_string(),
            DataType::UInt32 => c.as_primitive::<UInt32Type>().value(i).to_string(),
            DataType::UInt64 => c.as_primitive::<UInt64Type>().value(i).to_string(),
            DataType::Float64 => c.as_primitive::<Float64Type>().value(i).to_string(),
            DataType::Dictionary(_, _) => {
                let d = c.as_any_dictionary();
                let k = d.normalized_keys()[i];
                d.values().as_string::<i32>().value(k).to_string()
            }
            t => panic!("unexpected column type {t}"),
        })
        .collect()
}

#[test]
fn snappy_files_read_like_the_original() {
    let d = tempfile::tempdir().unwrap();
    let src = made(d.path());
    let snappy = d.path().join("snappy.parquet");
    rewrite(&src, &snappy, Compression::SNAPPY, &same);
    let csv = |p: &Path| {
        let out = batchgen()
            .args(["summary", "--format", "csv"])
            .arg(p)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(csv(&snappy), csv(&src));
}

#[test]
fn control_characters_in_algo_values_are_escaped() {
    let d = tempfile::tempdir().unwrap();
    let src = made(d.path());
    let evil = d.path().join("evil.parquet");
    rewrite(&src, &evil, Compression::UNCOMPRESSED, &|f, c| {
        if f.name() != "algo" {
            return same(f, c);
        }
        let v: Vec<String> = arrow_cast_to_strings(c)
            .into_iter()
            .map(|a| format!("\u{1b}[31m{a}\nfake line"))
            .collect();
        (
            Field::new("algo", DataType::Utf8, false),
            Arc::new(StringArray::from(v)) as ArrayRef,
        )
    });
    for format in ["table", "csv", "json"] {
        let out = batchgen()
            .args(["summary", "--format", format])
            .arg(&evil)
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains('\u{1b}'), "{format}: {text}");
        assert!(!text.contains("\nfake line"), "{format}: {text}");
        assert!(text.contains("kruskal"), "{format}: {text}");
    }
}
