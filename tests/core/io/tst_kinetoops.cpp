// FLOPs and bytes of PyTorch operators from recorded shapes (docs/MODEL.md §11), against counts
// made by hand in each row, and the refusals of shapes that do not fit their operator.
#include "core/io/formats/kineto_ops.h"

#include <QTest>

using namespace ridgepoint;
using namespace ridgepoint::kineto;

class TestKinetoOps : public QObject
{
    Q_OBJECT

private slots:
    void knowsElementSizes_data();
    void knowsElementSizes();
    void countsOperatorsByHand_data();
    void countsOperatorsByHand();
    void refusesWhatItCannotCount_data();
    void refusesWhatItCannotCount();
    void readsIsCausalAtItsPlace_data();
    void readsIsCausalAtItsPlace();

private:
    // The rows of MODEL.md §11.5's families, added to countsOperatorsByHand's table.
    static void countsMoreOperatorsByHand();
    static void countsShapedOperatorsByHand();
    static void countsAttentionBackwardAndOrderingByHand();
};

namespace {

// "float[4,8] Scalar -" → inputs: a type and its dims; "Scalar" and "-" (no type) have none.
// '_' stands for a space in a type name ("long_int"). "=VALUE" after an input is its Concrete
// Inputs entry ("Scalar=[1,1]"); "TensorList{2x3;4}" a list of tensors of shapes [2, 3] and [4].
std::vector<OperatorInput> inputsOf(const QString &text)
{
    std::vector<OperatorInput> out;
    for (QString word : text.split(' ', Qt::SkipEmptyParts)) {
        OperatorInput input;
        if (const qsizetype equals = word.indexOf('='); equals >= 0) {
            input.concrete = word.mid(equals + 1).toStdString();
            word = word.left(equals);
        }
        if (word.startsWith("TensorList{")) {
            input.type = "TensorList";
            input.listed = false;
            const QString shapes = word.mid(11, word.size() - 12);
            for (const QString &shape : shapes.split(';', Qt::SkipEmptyParts)) {
                std::vector<std::int64_t> dims;
                for (const QString &d : shape.split('x', Qt::SkipEmptyParts))
                    dims.push_back(d.toLongLong());
                input.list.push_back(std::move(dims));
            }
            out.push_back(std::move(input));
            continue;
        }
        const qsizetype bracket = word.lastIndexOf('[');
        const QString type = bracket < 0 ? word : word.left(bracket);
        input.type = type == "-" ? std::string() : type.toStdString();
        std::replace(input.type.begin(), input.type.end(), '_', ' ');
        if (bracket >= 0) {
            const QString dims = word.mid(bracket + 1, word.size() - bracket - 2);
            for (const QString &d : dims.split(',', Qt::SkipEmptyParts))
                input.dims.push_back(d.toLongLong());
        }
        out.push_back(std::move(input));
    }
    return out;
}

} // namespace

void TestKinetoOps::knowsElementSizes_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<double>("bytes"); // 0: not a tensor type
    QTest::addColumn<QString>("precision"); // "": none
    QTest::newRow("float") << "float" << 4.0 << "fp32";
    QTest::newRow("half") << "c10::Half" << 2.0 << "fp16";
    QTest::newRow("bfloat16") << "c10::BFloat16" << 2.0 << "bf16";
    QTest::newRow("double") << "double" << 8.0 << "fp64";
    QTest::newRow("long int") << "long int" << 8.0 << "";
    QTest::newRow("int") << "int" << 4.0 << "";
    QTest::newRow("bool") << "bool" << 1.0 << "";
    QTest::newRow("scalar") << "Scalar" << 0.0 << "";
    QTest::newRow("tensor list") << "TensorList" << 0.0 << "";
}

void TestKinetoOps::knowsElementSizes()
{
    QFETCH(QString, type);
    QFETCH(double, bytes);
    QFETCH(QString, precision);
    const auto size = elementBytes(type.toStdString());
    QCOMPARE(size.value_or(0.0), bytes);
    const auto p = precisionOfType(type.toStdString());
    QCOMPARE(p ? QString::fromUtf8(precisionName(*p).data()) : QString(), precision);
}

void TestKinetoOps::countsOperatorsByHand_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("precision");
    // Matmuls: 2·M·N·K (+ M·N for a bias); A, B and the bias read, C written.
    QTest::newRow("mm") << "aten::mm"
                        << "float[64,32] float[32,16]" << 2.0 * 64 * 16 * 32
                        << 4.0 * (64 * 32 + 32 * 16 + 64 * 16) << "fp32";
    QTest::newRow("addmm") << "aten::addmm"
                           << "float[16] float[4,8] float[8,16] Scalar Scalar"
                           << 2.0 * 4 * 16 * 8 + 4 * 16 << 4.0 * (16 + 32 + 128 + 64) << "fp32";
    QTest::newRow("bmm fp16") << "aten::bmm"
                              << "c10::Half[2,4,8] c10::Half[2,8,16]" << 2.0 * 2 * 4 * 16 * 8
                              << 2.0 * (64 + 256 + 128) << "fp16";
    QTest::newRow("baddbmm") << "aten::baddbmm"
                             << "float[2,4,16] float[2,4,8] float[2,8,16] Scalar Scalar"
                             << 2.0 * 2 * 4 * 16 * 8 + 2 * 4 * 16 << 4.0 * (128 + 64 + 256 + 128)
                             << "fp32";
    QTest::newRow("matmul broadcast")
        << "aten::matmul"
        << "float[3,4,8] float[8,16]" << 2.0 * 3 * 4 * 16 * 8 << 4.0 * (96 + 128 + 192) << "fp32";
    QTest::newRow("matmul vectors")
        << "aten::matmul"
        << "float[8] float[8]" << 2.0 * 8 << 4.0 * (8 + 8 + 1) << "fp32";
    QTest::newRow("linear bf16") << "aten::linear"
                                 << "c10::BFloat16[2,3,8] c10::BFloat16[16,8] c10::BFloat16[16]"
                                 << 2.0 * 6 * 16 * 8 + 6 * 16 << 2.0 * (48 + 128 + 16 + 96)
                                 << "bf16";
    // Elementwise: FLOPs per output element, inputs read, the broadcast output written.
    QTest::newRow("add broadcast")
        << "aten::add"
        << "float[4,1] float[1,5] Scalar" << 20.0 << 4.0 * (4 + 5 + 20) << "fp32";
    QTest::newRow("mul_ in place")
        << "aten::mul_"
        << "float[3,5] float[5]" << 15.0 << 4.0 * (15 + 5 + 15) << "fp32";
    QTest::newRow("relu") << "aten::relu"
                          << "float[10]" << 10.0 << 80.0 << "fp32";
    QTest::newRow("gelu fp16") << "aten::gelu"
                               << "c10::Half[10] -" << 50.0 << 40.0 << "fp16";
    QTest::newRow("sigmoid fp64") << "aten::sigmoid"
                                  << "double[10]" << 40.0 << 160.0 << "fp64";
    QTest::newRow("tanh_backward") << "aten::tanh_backward"
                                   << "float[6] float[6]" << 18.0 << 72.0 << "fp32";
    QTest::newRow("where") << "aten::where"
                           << "bool[4] float[4] float[4]" << 4.0 << 4.0 + 16 + 16 + 16 << "fp32";
    // Softmax: 5 FLOPs an element, read and written once.
    QTest::newRow("softmax") << "aten::_softmax"
                             << "float[2,10] Scalar Scalar" << 100.0 << 160.0 << "fp32";
    QTest::newRow("log_softmax") << "aten::log_softmax"
                                 << "c10::Half[5,4] Scalar -" << 100.0 << 80.0 << "fp16";
    // Layer norm: 8 FLOPs an element; x, weight, bias read; y, mean and rstd (fp32) written.
    QTest::newRow("layer_norm") << "aten::native_layer_norm"
                                << "float[4,8] - float[8] float[8] Scalar" << 8.0 * 32
                                << 4.0 * (32 + 32) + 4.0 * (4 + 4) + 4.0 * (8 + 8) << "fp32";
    QTest::newRow("layer_norm backward")
        << "aten::native_layer_norm_backward"
        << "float[4,8] float[4,8] - float[4,1] float[4,1] float[8] float[8] -" << 13.0 * 32
        << 4.0 * (32 + 32 + 4 + 4 + 8 + 8) + 4.0 * 32 + 4.0 * (8 + 8) << "fp32";
    // Copies: no FLOPs; the source read, the destination written.
    QTest::newRow("copy_ widening")
        << "aten::copy_"
        << "long_int[10] int[10] Scalar" << 0.0 << 8.0 * 10 + 4.0 * 10 << "";
    QTest::newRow("to") << "aten::to"
                        << "float[10] Scalar Scalar" << 0.0 << 80.0 << "fp32";
    countsMoreOperatorsByHand();
}

// Reductions, losses and the multi-tensor operators of MODEL.md §11.5, each against a count by
// hand.
void TestKinetoOps::countsMoreOperatorsByHand()
{
    // Reductions: f FLOPs per input element; the input read, the output written.
    QTest::newRow("sum over dim 0")
        << "aten::sum"
        << "float[5,128] ScalarList=[0] Scalar=True -" << 640.0 << 4.0 * (640 + 128) << "fp32";
    QTest::newRow("sum, dims not recorded")
        << "aten::sum"
        << "float[1024,40] - Scalar -" << 40960.0 << 4.0 * (40960 + 1) << "fp32";
    QTest::newRow("mean of all") << "aten::mean"
                                 << "float[5,128] ScalarList=[] Scalar=False - -" << 640.0
                                 << 4.0 * (640 + 1) << "fp32";
    QTest::newRow("var fp16 last dim")
        << "aten::var"
        << "c10::Half[4,6] ScalarList=[-1] -" << 3.0 * 24 << 2.0 * (24 + 4) << "fp16";
    QTest::newRow("argmax") << "aten::argmax"
                            << "float[3,4] Scalar=1 Scalar=False" << 12.0 << 4.0 * 12 + 8.0 * 3
                            << "fp32";
    // Losses: mse 3 FLOPs an element, binary cross-entropy with logits 8.
    QTest::newRow("mse_loss mean")
        << "aten::mse_loss"
        << "float[5,128] float[5,128] Scalar=1" << 3.0 * 640 << 4.0 * (640 + 640 + 1) << "fp32";
    QTest::newRow("mse_loss none")
        << "aten::mse_loss"
        << "float[4] float[4] Scalar=0" << 12.0 << 4.0 * (4 + 4 + 4) << "fp32";
    QTest::newRow("mse_loss_backward") << "aten::mse_loss_backward"
                                       << "float[] float[5,128] float[5,128] Scalar=1" << 3.0 * 640
                                       << 4.0 * (1 + 640 + 640) + 4.0 * 640 << "fp32";
    QTest::newRow("bce with logits") << "aten::binary_cross_entropy_with_logits"
                                     << "float[1024,1] float[1024,1] - - Scalar=1" << 8.0 * 1024
                                     << 4.0 * (1024 + 1024 + 1) << "fp32";
    // Multi-tensor operators over lists of [128, 128] and [128] (16512 elements, fp32).
    QTest::newRow("_foreach_add_") << "aten::_foreach_add_"
                                   << "TensorList{128x128;128} TensorList{128x128;128} "
                                      "Scalar=-0.001"
                                   << 16512.0 << 4.0 * (3 * 16512) << "fp32";
    QTest::newRow("_foreach_addcdiv_")
        << "aten::_foreach_addcdiv_"
        << "TensorList{10;6} TensorList{10;6} TensorList{10;6} Scalar" << 2.0 * 16
        << 4.0 * (3 * 16 + 16) << "fp32";
    QTest::newRow("_foreach_norm")
        << "aten::_foreach_norm"
        << "TensorList{10;6} Scalar=2" << 2.0 * 16 << 4.0 * (16 + 2) << "fp32";
    // Adam over 128 elements: 12 FLOPs each; params, grads and both moments read, three written.
    QTest::newRow("_fused_adam_") << "aten::_fused_adam_"
                                  << "TensorList{100;28} TensorList{100;28} TensorList{100;28} "
                                     "TensorList{100;28} TensorList{} TensorList{1;1} Scalar"
                                  << 12.0 * 128 << 4.0 * 7 * 128 << "fp32";
    countsShapedOperatorsByHand();
    countsAttentionBackwardAndOrderingByHand();
}

// Convolutions, attention, norms and the data movers, each against a count by hand.
void TestKinetoOps::countsShapedOperatorsByHand()
{
    // conv2d 2×3×8×8 by 4×3×3×3, padding 1: out 2×4×8×8; 2·2·4·27·64 + bias 2·4·64.
    QTest::newRow("conv2d") << "aten::conv2d"
                            << "float[2,3,8,8] float[4,3,3,3] float[4] ScalarList=[1,1] "
                               "ScalarList=[1,1] ScalarList=[1,1] Scalar=1"
                            << 2.0 * 2 * 4 * 27 * 64 + 2 * 4 * 64 << 4.0 * (384 + 108 + 4 + 512)
                            << "fp32";
    // Stride 2, no padding, 7×7 → 3×3, no bias.
    QTest::newRow("conv2d stride 2")
        << "aten::conv2d"
        << "float[1,2,7,7] float[2,2,3,3] - ScalarList=[2] ScalarList=[0] ScalarList=[1] Scalar=1"
        << 2.0 * 2 * 18 * 9 << 4.0 * (98 + 36 + 18) << "fp32";
    // conv1d 1×2×10 by 3×2×3, no padding: out 1×3×8 (10 − 3 + 1); 2·1·3·2·3·8, no bias.
    QTest::newRow("conv1d") << "aten::conv1d"
                            << "float[1,2,10] float[3,2,3] - ScalarList=[1] ScalarList=[0] "
                               "ScalarList=[1] Scalar=1"
                            << 2.0 * 3 * 2 * 3 * 8 << 4.0 * (20 + 18 + 24) << "fp32";
    // conv3d 1×1×4×4×4 by 2×1×3×3×3, padding 1: out 1×2×4×4×4; 2·2·27·64 + bias 2·64.
    QTest::newRow("conv3d") << "aten::conv3d"
                            << "float[1,1,4,4,4] float[2,1,3,3,3] float[2] ScalarList=[1,1,1] "
                               "ScalarList=[1,1,1] ScalarList=[1,1,1] Scalar=1"
                            << 2.0 * 2 * 27 * 64 + 2 * 64 << 4.0 * (64 + 54 + 2 + 128) << "fp32";
    // Two groups: 4 channels, weight [4, 2, 1, 1], each output reads 2 inputs.
    QTest::newRow("convolution grouped")
        << "aten::convolution"
        << "float[1,4,5,5] float[4,2,1,1] - ScalarList=[1,1] ScalarList=[0,0] ScalarList=[1,1] "
           "Scalar=False ScalarList=[0,0] Scalar=2"
        << 2.0 * 4 * 2 * 25 << 4.0 * (100 + 8 + 100) << "fp32";
    // Backward of the conv2d above, the input's and weight's gradients (no bias's).
    QTest::newRow("convolution_backward")
        << "aten::convolution_backward"
        << "float[2,4,8,8] float[2,3,8,8] float[4,3,3,3] ScalarList=[4] ScalarList=[1,1] "
           "ScalarList=[1,1] ScalarList=[1,1] Scalar=False ScalarList=[0,0] Scalar=1 "
           "ScalarList=[True,True,False]"
        << 2.0 * (2.0 * 2 * 4 * 27 * 64) << 4.0 * (512 + 384 + 108) + 4.0 * (384 + 108) << "fp32";
    // Flash attention, causal: half of 2·B·H·L·S·(D + Dv) = 2·2·4·16·16·16.
    QTest::newRow("flash attention causal")
        << "aten::_scaled_dot_product_flash_attention"
        << "c10::BFloat16[2,4,16,8] c10::BFloat16[2,4,16,8] c10::BFloat16[2,4,16,8] Scalar=0. "
           "Scalar=True Scalar=False -"
        << 0.5 * 2 * 2 * 4 * 16 * 16 * 16 << 2.0 * (3 * 1024 + 1024) << "bf16";
    // Grouped queries: 8 heads over 2 K/V heads, L 4, S 6, D 16.
    QTest::newRow("sdpa grouped") << "aten::scaled_dot_product_attention"
                                  << "c10::Half[1,8,4,16] c10::Half[1,2,6,16] c10::Half[1,2,6,16] "
                                     "- Scalar=0. Scalar=False"
                                  << 2.0 * 8 * 4 * 6 * 32 << 2.0 * (512 + 192 + 192 + 512)
                                  << "fp16";
    // Norms: group norm of 2 samples × 2 groups; RMS norm; batch norm of 3 channels.
    QTest::newRow("native_group_norm")
        << "aten::native_group_norm"
        << "float[2,4,3,3] float[4] float[4] Scalar=2 Scalar=4 Scalar=9 Scalar=2 Scalar=1e-05"
        << 8.0 * 72 << 4.0 * (2 * 72 + 8) + 8.0 * 4 << "fp32";
    QTest::newRow("rms_norm fp16") << "aten::rms_norm"
                                   << "c10::Half[3,8] ScalarList=[8] c10::Half[8] Scalar"
                                   << 4.0 * 24 << 2.0 * (2 * 24 + 8) << "fp16";
    QTest::newRow("native_batch_norm")
        << "aten::native_batch_norm"
        << "float[2,3,4] float[3] float[3] float[3] float[3] Scalar=True Scalar Scalar" << 8.0 * 24
        << 4.0 * (2 * 24 + 12) + 8.0 * 3 << "fp32";
    // Data movers: no FLOPs, the bytes they move.
    QTest::newRow("embedding") << "aten::embedding"
                               << "float[100,16] long_int[4,5] Scalar Scalar Scalar" << 0.0
                               << 8.0 * 20 + 2.0 * 4 * 20 * 16 << "fp32";
    // embedding_bag of 6 indices into 3 bags of a [100, 16] table: 6·16 elements gathered, 3·16
    // written; the 6 indices and 3 offsets (8 bytes each) read. sum: 6·16 additions; mean: and 3·16
    // divisions; max: no FLOPs; sum with per-sample weights: 6 more floats read, 6·16 products.
    QTest::newRow("embedding_bag sum")
        << "aten::embedding_bag"
        << "float[100,16] long_int[6] long_int[3] Scalar=False Scalar=0 Scalar=False Scalar "
           "Scalar=False Scalar"
        << 6.0 * 16 << 8.0 * 9 + 4.0 * 9 * 16 << "fp32";
    QTest::newRow("_embedding_bag mean")
        << "aten::_embedding_bag"
        << "float[100,16] long_int[6] long_int[3] Scalar=False Scalar=1 Scalar=False Scalar "
           "Scalar=False Scalar"
        << 9.0 * 16 << 8.0 * 9 + 4.0 * 9 * 16 << "fp32";
    QTest::newRow("embedding_bag max, last offset")
        << "aten::embedding_bag"
        << "float[100,16] long_int[6] long_int[4] Scalar=False Scalar=2 Scalar=False Scalar "
           "Scalar=True Scalar"
        << 0.0 << 8.0 * 10 + 4.0 * 9 * 16 << "fp32";
    QTest::newRow("embedding_bag weighted")
        << "aten::embedding_bag"
        << "float[100,16] long_int[6] long_int[3] Scalar=False Scalar=0 Scalar=False float[6] "
           "Scalar=False Scalar"
        << 2.0 * 6 * 16 << 8.0 * 9 + 4.0 * 9 * 16 + 4.0 * 6 << "fp32";
    QTest::newRow("index_select") << "aten::index_select"
                                  << "float[10,6] Scalar=0 long_int[3]" << 0.0
                                  << 8.0 * 3 + 2.0 * 4 * 18 << "fp32";
    // gather along dim 1 with 10×2 indices: the 20 indices read (8 bytes each), 20 elements read
    // and written.
    QTest::newRow("gather") << "aten::gather"
                            << "float[10,6] Scalar=1 long_int[10,2] Scalar=False" << 0.0
                            << 8.0 * 20 + 2.0 * 4 * 20 << "fp32";
    QTest::newRow("cat") << "aten::cat"
                         << "TensorList{2x3;4x3} Scalar=0" << 0.0 << 2.0 * 4 * 18 << "";
    QTest::newRow("fill_") << "aten::fill_"
                           << "float[10] Scalar=0" << 0.0 << 40.0 << "fp32";
}

// Attention's backward pass and the ordering operators, each against a count by hand.
void TestKinetoOps::countsAttentionBackwardAndOrderingByHand()
{
    // Attention backward, SDPA's flash operator, causal (is_causal its 12th input): the five
    // matmuls 2·B·H·L·S·(3·D + 2·Dv), halved. With D = Dv that is 2.5 × the forward's
    // 2·B·H·L·S·2·D. Read: dO, q, k, v, out (bf16, 1024 elements each) and the log-sum-exp
    // (fp32 [2, 4, 16]); written: dq, dk, dv.
    QTest::newRow("flash attention backward causal")
        << "aten::_scaled_dot_product_flash_attention_backward"
        << "c10::BFloat16[2,4,16,8] c10::BFloat16[2,4,16,8] c10::BFloat16[2,4,16,8] "
           "c10::BFloat16[2,4,16,8] c10::BFloat16[2,4,16,8] float[2,4,16] - - Scalar=16 "
           "Scalar=16 Scalar=0. Scalar=True - - -"
        << 0.5 * 2 * 2 * 4 * 16 * 16 * (3 * 8 + 2 * 8)
        << 2.0 * 5 * 1024 + 4.0 * 128 + 2.0 * 3 * 1024 << "bf16";
    // The kernel's own operator beneath it, [B, L, H, D], grouped (8 heads over 2), no mask
    // (custom_mask_type 0, its 15th input): B 1, L 6, S 4, D = Dv = 16. Read dO, q, out (768
    // elements each), k, v (128) in fp16 and the fp32 log-sum-exp [1, 8, 6]; dq, dk, dv written.
    QTest::newRow("efficient attention backward")
        << "aten::_efficient_attention_backward"
        << "c10::Half[1,6,8,16] c10::Half[1,6,8,16] c10::Half[1,4,2,16] c10::Half[1,4,2,16] - "
           "c10::Half[1,6,8,16] - - Scalar=6 Scalar=4 float[1,8,6] Scalar=0. - - Scalar=0"
        << 2.0 * 8 * 6 * 4 * (3 * 16 + 2 * 16)
        << 2.0 * (3 * 768 + 2 * 128) + 4.0 * 48 + 2.0 * (768 + 2 * 128) << "fp16";
    // The same with custom_mask_type 1 (causal from the top left): half.
    QTest::newRow("efficient attention backward causal")
        << "aten::_efficient_attention_backward"
        << "c10::Half[1,6,8,16] c10::Half[1,6,8,16] c10::Half[1,4,2,16] c10::Half[1,4,2,16] - "
           "c10::Half[1,6,8,16] - - Scalar=6 Scalar=4 float[1,8,6] Scalar=0. - - Scalar=1"
        << 0.5 * 2.0 * 8 * 6 * 4 * (3 * 16 + 2 * 16)
        << 2.0 * (3 * 768 + 2 * 128) + 4.0 * 48 + 2.0 * (768 + 2 * 128) << "fp16";
    // Ordering: no FLOPs; x read, values and int64 indices written (argsort: indices only;
    // topk: k per row of the last dim, 8 rows × 5).
    QTest::newRow("sort") << "aten::sort"
                          << "float[4,100] Scalar=-1 Scalar=False" << 0.0
                          << 4.0 * 400 + 4.0 * 400 + 8.0 * 400 << "fp32";
    QTest::newRow("argsort") << "aten::argsort"
                             << "c10::Half[1000] Scalar=0 Scalar=True" << 0.0
                             << 2.0 * 1000 + 8.0 * 1000 << "fp16";
    QTest::newRow("topk") << "aten::topk"
                          << "float[8,50] Scalar=5 Scalar=-1 Scalar=True Scalar=True" << 0.0
                          << 4.0 * 400 + (4.0 + 8.0) * 40 << "fp32";
    QTest::newRow("topk along dim 0") << "aten::topk"
                                      << "float[8,50] Scalar=2 Scalar=0 Scalar=True Scalar=True"
                                      << 0.0 << 4.0 * 400 + (4.0 + 8.0) * 100 << "fp32";
}

void TestKinetoOps::countsOperatorsByHand()
{
    QFETCH(QString, op);
    QFETCH(QString, inputs);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(QString, precision);
    const auto cost = operatorCost(op.toStdString(), inputsOf(inputs));
    QVERIFY2(cost, cost ? "" : cost.error().c_str());
    QCOMPARE(cost->flops, flops);
    QCOMPARE(cost->bytes, bytes);
    QCOMPARE(
        cost->precision ? QString::fromUtf8(precisionName(*cost->precision).data()) : QString(),
        precision);
}

void TestKinetoOps::refusesWhatItCannotCount_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<QString>("reason");
    QTest::newRow("mm shapes") << "aten::mm"
                               << "float[2,3] float[4,5]"
                               << "aten::mm: shapes [2, 3] and [4, 5] do not multiply";
    QTest::newRow("bmm batches") << "aten::bmm"
                                 << "float[2,3,4] float[3,4,5]"
                                 << "aten::bmm: shapes [2, 3, 4] and [3, 4, 5] do not multiply";
    QTest::newRow("add broadcast") << "aten::add"
                                   << "float[2,3] float[4] Scalar"
                                   << "aten::add: shapes [2, 3] and [4] do not broadcast";
    QTest::newRow("linear") << "aten::linear"
                            << "float[2,8] float[16,4]"
                            << "aten::linear: shapes [2, 8] and [16, 4] do not fit";
    QTest::newRow("no model") << "aten::nonzero"
                              << "float[64] Scalar Scalar"
                              << "operator aten::nonzero has no model yet";
    QTest::newRow("cat without list shapes")
        << "aten::cat"
        << "TensorList Scalar"
        << "aten::cat: the shapes of its tensor list are not recorded";
    QTest::newRow("conv2d settings") << "aten::conv2d"
                                     << "float[1,1,3,3] float[1,1,3,3]"
                                     << "aten::conv2d: its stride, padding, dilation and groups "
                                        "are not recorded";
    QTest::newRow("conv2d groups") << "aten::conv2d"
                                   << "float[1,3,5,5] float[2,2,1,1] - ScalarList=[1] "
                                      "ScalarList=[0] ScalarList=[1] Scalar=1"
                                   << "aten::conv2d: shapes [1, 3, 5, 5] and [2, 2, 1, 1] do not "
                                      "fit 1 groups";
    QTest::newRow("conv too small") << "aten::conv2d"
                                    << "float[1,1,2,2] float[1,1,3,3] - ScalarList=[1] "
                                       "ScalarList=[0] ScalarList=[1] Scalar=1"
                                    << "aten::conv2d: kernel [1, 1, 3, 3] does not fit";
    QTest::newRow("transposed") << "aten::convolution"
                                << "float[1,1,3,3] float[1,1,3,3] - ScalarList=[1] "
                                   "ScalarList=[0] ScalarList=[1] Scalar=True ScalarList=[0] "
                                   "Scalar=1"
                                << "aten::convolution: a transposed convolution has no model";
    QTest::newRow("attention shapes")
        << "aten::_scaled_dot_product_flash_attention"
        << "c10::Half[2,4,16] c10::Half[2,4,16] c10::Half[2,4,16]"
        << "aten::_scaled_dot_product_flash_attention: shapes [2, 4, 16], [2, 4, 16] and [2, 4, "
           "16] do not fit";
    QTest::newRow("attention backward shapes")
        << "aten::_scaled_dot_product_flash_attention_backward"
        << "c10::Half[2,4,16,8] c10::Half[2,4,16,8] c10::Half[2,4,16,8]"
        << "3 tensor inputs (expected the output's gradient, query, key and value)";
    QTest::newRow("topk without k") << "aten::topk"
                                    << "float[8,50] Scalar Scalar"
                                    << "aten::topk: its k and dim are not recorded";
    QTest::newRow("topk k too large") << "aten::topk"
                                      << "float[8,50] Scalar=60 Scalar=-1"
                                      << "aten::topk: k = 60 is more than the 50 elements along "
                                         "dim -1 of [8, 50]";
    QTest::newRow("foreach lengths") << "aten::_foreach_mul_"
                                     << "TensorList{2;3} TensorList{2}"
                                     << "aten::_foreach_mul_: tensor lists of 2 and 1 tensors";
    QTest::newRow("foreach size") << "aten::_foreach_sqrt"
                                  << "TensorList{2x-1}"
                                  << "aten::_foreach_sqrt: a size in its tensor list is not a "
                                     "whole number";
    QTest::newRow("foreach unknown") << "aten::_foreach_erfinv_"
                                     << "TensorList{2;3}"
                                     << "operator aten::_foreach_erfinv_ has no model yet";
    QTest::newRow("sum dim") << "aten::sum"
                             << "float[2,3] ScalarList=[2]"
                             << "aten::sum: dim 2 is outside [2, 3]";
    QTest::newRow("mse shapes") << "aten::mse_loss"
                                << "float[4] float[5] Scalar=1"
                                << "aten::mse_loss: shapes [4] and [5] do not match";
    QTest::newRow("group norm groups") << "aten::native_group_norm"
                                       << "float[2,4,3,3] float[4] float[4] Scalar=2 Scalar=4 "
                                          "Scalar=9 Scalar=3"
                                       << "aten::native_group_norm: its number of groups";
    QTest::newRow("not aten") << "fbgemm::permute_sparse_features"
                              << "int[4]"
                              << "operator fbgemm::permute_sparse_features has no model yet";
    QTest::newRow("unknown type") << "aten::mm"
                                  << "c10::complex<float>[2,2] float[2,2]"
                                  << "input type \"c10::complex<float>\" has no known element";
    QTest::newRow("negative size") << "aten::relu"
                                   << "float[-3]"
                                   << "aten::relu: negative size in [-3]";
    QTest::newRow("no tensor") << "aten::relu"
                               << "Scalar"
                               << "aten::relu: no tensor input";
    QTest::newRow("embedding_bag mode") << "aten::embedding_bag"
                                        << "float[100,16] long_int[6] long_int[3] Scalar Scalar"
                                        << "its mode (0 sum, 1 mean, 2 max) is not recorded";
    QTest::newRow("embedding_bag table") << "aten::embedding_bag"
                                         << "float[100] long_int[6] long_int[3]"
                                         << "are not a table [V, D]";
}

void TestKinetoOps::refusesWhatItCannotCount()
{
    QFETCH(QString, op);
    QFETCH(QString, inputs);
    QFETCH(QString, reason);
    const auto cost = operatorCost(op.toStdString(), inputsOf(inputs));
    QVERIFY(!cost);
    QVERIFY2(QString::fromStdString(cost.error()).contains(reason), cost.error().c_str());
}

void TestKinetoOps::readsIsCausalAtItsPlace_data()
{
    // Where is_causal (or custom_mask_type) is among each attention operator's inputs, from 0,
    // as PyTorch's schemas (native_functions.yaml) place it: docs/MODEL.md §11.5's table.
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("count"); // inputs recorded
    QTest::addColumn<int>("at");
    QTest::addColumn<bool>("backward"); // grad_out before q, k, v
    QTest::addColumn<bool>("headsSecond"); // [B, H, L, D]; else [B, L, H, D]
    QTest::addColumn<bool>("maskType"); // custom_mask_type, an integer
    QTest::newRow("sdpa") << "aten::scaled_dot_product_attention" << 8 << 5 << false << true
                          << false;
    QTest::newRow("sdpa flash") << "aten::_scaled_dot_product_flash_attention" << 7 << 4 << false
                                << true << false;
    QTest::newRow("sdpa efficient")
        << "aten::_scaled_dot_product_efficient_attention" << 8 << 6 << false << true << false;
    QTest::newRow("sdpa cudnn") << "aten::_scaled_dot_product_cudnn_attention" << 9 << 6 << false
                                << true << false;
    QTest::newRow("flash forward")
        << "aten::_flash_attention_forward" << 14 << 8 << false << false << false;
    QTest::newRow("efficient forward")
        << "aten::_efficient_attention_forward" << 14 << 9 << false << false << true;
    QTest::newRow("sdpa flash backward") << "aten::_scaled_dot_product_flash_attention_backward"
                                         << 15 << 11 << true << true << false;
    QTest::newRow("sdpa efficient backward")
        << "aten::_scaled_dot_product_efficient_attention_backward" << 13 << 11 << true << true
        << false;
    QTest::newRow("sdpa efficient backward, PyTorch 2.0")
        << "aten::_scaled_dot_product_efficient_attention_backward" << 8 << 6 << true << true
        << false;
    QTest::newRow("sdpa cudnn backward") << "aten::_scaled_dot_product_cudnn_attention_backward"
                                         << 16 << 14 << true << true << false;
    QTest::newRow("flash backward")
        << "aten::_flash_attention_backward" << 17 << 11 << true << false << false;
    QTest::newRow("efficient backward")
        << "aten::_efficient_attention_backward" << 20 << 14 << true << false << true;
}

void TestKinetoOps::readsIsCausalAtItsPlace()
{
    QFETCH(QString, op);
    QFETCH(int, count);
    QFETCH(int, at);
    QFETCH(bool, backward);
    QFETCH(bool, headsSecond);
    QFETCH(bool, maskType);
    // B 1, H 2, L = S 4, D 8; the flag at `flagAt`, every other input unrecorded ("-").
    const QString tensor = headsSecond ? "float[1,2,4,8]" : "float[1,4,2,8]";
    const int tensors = backward ? 4 : 3;
    const auto flopsWith = [&](int flagAt, bool causal) {
        QStringList words;
        for (int i = 0; i < count; ++i) {
            if (i < tensors)
                words << tensor;
            else if (i == flagAt)
                words << (maskType ? (causal ? "Scalar=1" : "Scalar=0")
                                   : (causal ? "Scalar=True" : "Scalar=False"));
            else
                words << "-";
        }
        const auto cost = operatorCost(op.toStdString(), inputsOf(words.join(' ')));
        return cost ? cost->flops : -1.0;
    };
    const double plain = flopsWith(at, false);
    QVERIFY(plain > 0.0);
    QCOMPARE(flopsWith(at, true), plain / 2.0);
    // One place earlier the flag is not the one read.
    QCOMPARE(flopsWith(at - 1, true), plain);
}

QTEST_APPLESS_MAIN(TestKinetoOps)
#include "tst_kinetoops.moc"
