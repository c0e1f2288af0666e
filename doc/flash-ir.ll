; ModuleID = 'dataloop'
source_filename = "dataloop"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @dl_748c2fab580803ea(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp slt i64 %2, %3
  br i1 %4, label %loop, label %done

loop:                                             ; preds = %latch, %entry
  %i = phi i64 [ %2, %entry ], [ %8, %latch ]
  %out = phi i8* [ %1, %entry ], [ %7, %latch ]
  %5 = mul i64 %i, 8
  %6 = getelementptr i8, i8* %0, i64 %5
  call void @dl_1d7397f400f973a4(i8* %6, i8* %out, i64 0, i64 80)
  %7 = getelementptr i8, i8* %out, i64 327680
  %8 = add i64 %i, 1
  %9 = icmp slt i64 %8, %3
  br i1 %9, label %latch, label %done

done:                                             ; preds = %loop, %entry
  %10 = phi i8* [ %1, %entry ], [ %7, %loop ]
  ret void

latch:                                            ; preds = %loop
  br label %loop
}

define void @dl_1486dbb3ae3dc07b(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp eq i64 %3, 24
  %5 = icmp eq i64 %2, 0
  %6 = and i1 %5, %4
  br i1 %6, label %full, label %part

full:                                             ; preds = %entry
  br i1 true, label %loop, label %done

part:                                             ; preds = %entry
  %7 = icmp slt i64 %2, %3
  br i1 %7, label %loop11, label %done12

loop:                                             ; preds = %latch10, %full
  %i = phi i64 [ 0, %full ], [ %14, %latch10 ]
  %out = phi i8* [ %1, %full ], [ %13, %latch10 ]
  %8 = mul i64 %i, 786432
  %9 = getelementptr i8, i8* %0, i64 %8
  br i1 true, label %loop1, label %done2

done:                                             ; preds = %done2, %full
  %10 = phi i8* [ %1, %full ], [ %13, %done2 ]
  ret void

loop1:                                            ; preds = %latch9, %loop
  %i3 = phi i64 [ 0, %loop ], [ %980, %latch9 ]
  %out4 = phi i8* [ %out, %loop ], [ %979, %latch9 ]
  %11 = mul i64 %i3, 49152
  %12 = getelementptr i8, i8* %9, i64 %11
  br i1 true, label %loop5, label %done6

done2:                                            ; preds = %done6, %loop
  %13 = phi i8* [ %out, %loop ], [ %979, %done6 ]
  %14 = add i64 %i, 1
  %15 = icmp slt i64 %14, 80
  br i1 %15, label %latch10, label %done

loop5:                                            ; preds = %latch, %loop1
  %i7 = phi i64 [ 0, %loop1 ], [ %977, %latch ]
  %out8 = phi i8* [ %out4, %loop1 ], [ %976, %latch ]
  %16 = mul i64 %i7, 3072
  %17 = getelementptr i8, i8* %12, i64 %16
  %18 = bitcast i8* %out8 to i64*
  %19 = load i64, i64* %18, align 1
  %20 = bitcast i8* %17 to i64*
  store i64 %19, i64* %20, align 1
  %21 = getelementptr i8, i8* %out8, i64 327680
  %22 = getelementptr i8, i8* %17, i64 8
  %23 = bitcast i8* %21 to i64*
  %24 = load i64, i64* %23, align 1
  %25 = bitcast i8* %22 to i64*
  store i64 %24, i64* %25, align 1
  %26 = getelementptr i8, i8* %out8, i64 655360
  %27 = getelementptr i8, i8* %17, i64 16
  %28 = bitcast i8* %26 to i64*
  %29 = load i64, i64* %28, align 1
  %30 = bitcast i8* %27 to i64*
  store i64 %29, i64* %30, align 1
  %31 = getelementptr i8, i8* %out8, i64 983040
  %32 = getelementptr i8, i8* %17, i64 24
  %33 = bitcast i8* %31 to i64*
  %34 = load i64, i64* %33, align 1
  %35 = bitcast i8* %32 to i64*
  store i64 %34, i64* %35, align 1
  %36 = getelementptr i8, i8* %out8, i64 1310720
  %37 = getelementptr i8, i8* %17, i64 32
  %38 = bitcast i8* %36 to i64*
  %39 = load i64, i64* %38, align 1
  %40 = bitcast i8* %37 to i64*
  store i64 %39, i64* %40, align 1
  %41 = getelementptr i8, i8* %out8, i64 1638400
  %42 = getelementptr i8, i8* %17, i64 40
  %43 = bitcast i8* %41 to i64*
  %44 = load i64, i64* %43, align 1
  %45 = bitcast i8* %42 to i64*
  store i64 %44, i64* %45, align 1
  %46 = getelementptr i8, i8* %out8, i64 1966080
  %47 = getelementptr i8, i8* %17, i64 48
  %48 = bitcast i8* %46 to i64*
  %49 = load i64, i64* %48, align 1
  %50 = bitcast i8* %47 to i64*
  store i64 %49, i64* %50, align 1
  %51 = getelementptr i8, i8* %out8, i64 2293760
  %52 = getelementptr i8, i8* %17, i64 56
  %53 = bitcast i8* %51 to i64*
  %54 = load i64, i64* %53, align 1
  %55 = bitcast i8* %52 to i64*
  store i64 %54, i64* %55, align 1
  %56 = getelementptr i8, i8* %out8, i64 2621440
  %57 = getelementptr i8, i8* %17, i64 64
  %58 = bitcast i8* %56 to i64*
  %59 = load i64, i64* %58, align 1
  %60 = bitcast i8* %57 to i64*
  store i64 %59, i64* %60, align 1
  %61 = getelementptr i8, i8* %out8, i64 2949120
  %62 = getelementptr i8, i8* %17, i64 72
  %63 = bitcast i8* %61 to i64*
  %64 = load i64, i64* %63, align 1
  %65 = bitcast i8* %62 to i64*
  store i64 %64, i64* %65, align 1
  %66 = getelementptr i8, i8* %out8, i64 3276800
  %67 = getelementptr i8, i8* %17, i64 80
  %68 = bitcast i8* %66 to i64*
  %69 = load i64, i64* %68, align 1
  %70 = bitcast i8* %67 to i64*
  store i64 %69, i64* %70, align 1
  %71 = getelementptr i8, i8* %out8, i64 3604480
  %72 = getelementptr i8, i8* %17, i64 88
  %73 = bitcast i8* %71 to i64*
  %74 = load i64, i64* %73, align 1
  %75 = bitcast i8* %72 to i64*
  store i64 %74, i64* %75, align 1
  %76 = getelementptr i8, i8* %out8, i64 3932160
  %77 = getelementptr i8, i8* %17, i64 96
  %78 = bitcast i8* %76 to i64*
  %79 = load i64, i64* %78, align 1
  %80 = bitcast i8* %77 to i64*
  store i64 %79, i64* %80, align 1
  %81 = getelementptr i8, i8* %out8, i64 4259840
  %82 = getelementptr i8, i8* %17, i64 104
  %83 = bitcast i8* %81 to i64*
  %84 = load i64, i64* %83, align 1
  %85 = bitcast i8* %82 to i64*
  store i64 %84, i64* %85, align 1
  %86 = getelementptr i8, i8* %out8, i64 4587520
  %87 = getelementptr i8, i8* %17, i64 112
  %88 = bitcast i8* %86 to i64*
  %89 = load i64, i64* %88, align 1
  %90 = bitcast i8* %87 to i64*
  store i64 %89, i64* %90, align 1
  %91 = getelementptr i8, i8* %out8, i64 4915200
  %92 = getelementptr i8, i8* %17, i64 120
  %93 = bitcast i8* %91 to i64*
  %94 = load i64, i64* %93, align 1
  %95 = bitcast i8* %92 to i64*
  store i64 %94, i64* %95, align 1
  %96 = getelementptr i8, i8* %out8, i64 5242880
  %97 = getelementptr i8, i8* %17, i64 128
  %98 = bitcast i8* %96 to i64*
  %99 = load i64, i64* %98, align 1
  %100 = bitcast i8* %97 to i64*
  store i64 %99, i64* %100, align 1
  %101 = getelementptr i8, i8* %out8, i64 5570560
  %102 = getelementptr i8, i8* %17, i64 136
  %103 = bitcast i8* %101 to i64*
  %104 = load i64, i64* %103, align 1
  %105 = bitcast i8* %102 to i64*
  store i64 %104, i64* %105, align 1
  %106 = getelementptr i8, i8* %out8, i64 5898240
  %107 = getelementptr i8, i8* %17, i64 144
  %108 = bitcast i8* %106 to i64*
  %109 = load i64, i64* %108, align 1
  %110 = bitcast i8* %107 to i64*
  store i64 %109, i64* %110, align 1
  %111 = getelementptr i8, i8* %out8, i64 6225920
  %112 = getelementptr i8, i8* %17, i64 152
  %113 = bitcast i8* %111 to i64*
  %114 = load i64, i64* %113, align 1
  %115 = bitcast i8* %112 to i64*
  store i64 %114, i64* %115, align 1
  %116 = getelementptr i8, i8* %out8, i64 6553600
  %117 = getelementptr i8, i8* %17, i64 160
  %118 = bitcast i8* %116 to i64*
  %119 = load i64, i64* %118, align 1
  %120 = bitcast i8* %117 to i64*
  store i64 %119, i64* %120, align 1
  %121 = getelementptr i8, i8* %out8, i64 6881280
  %122 = getelementptr i8, i8* %17, i64 168
  %123 = bitcast i8* %121 to i64*
  %124 = load i64, i64* %123, align 1
  %125 = bitcast i8* %122 to i64*
  store i64 %124, i64* %125, align 1
  %126 = getelementptr i8, i8* %out8, i64 7208960
  %127 = getelementptr i8, i8* %17, i64 176
  %128 = bitcast i8* %126 to i64*
  %129 = load i64, i64* %128, align 1
  %130 = bitcast i8* %127 to i64*
  store i64 %129, i64* %130, align 1
  %131 = getelementptr i8, i8* %out8, i64 7536640
  %132 = getelementptr i8, i8* %17, i64 184
  %133 = bitcast i8* %131 to i64*
  %134 = load i64, i64* %133, align 1
  %135 = bitcast i8* %132 to i64*
  store i64 %134, i64* %135, align 1
  %136 = getelementptr i8, i8* %out8, i64 8
  %137 = getelementptr i8, i8* %17, i64 192
  %138 = bitcast i8* %136 to i64*
  %139 = load i64, i64* %138, align 1
  %140 = bitcast i8* %137 to i64*
  store i64 %139, i64* %140, align 1
  %141 = getelementptr i8, i8* %136, i64 327680
  %142 = getelementptr i8, i8* %137, i64 8
  %143 = bitcast i8* %141 to i64*
  %144 = load i64, i64* %143, align 1
  %145 = bitcast i8* %142 to i64*
  store i64 %144, i64* %145, align 1
  %146 = getelementptr i8, i8* %136, i64 655360
  %147 = getelementptr i8, i8* %137, i64 16
  %148 = bitcast i8* %146 to i64*
  %149 = load i64, i64* %148, align 1
  %150 = bitcast i8* %147 to i64*
  store i64 %149, i64* %150, align 1
  %151 = getelementptr i8, i8* %136, i64 983040
  %152 = getelementptr i8, i8* %137, i64 24
  %153 = bitcast i8* %151 to i64*
  %154 = load i64, i64* %153, align 1
  %155 = bitcast i8* %152 to i64*
  store i64 %154, i64* %155, align 1
  %156 = getelementptr i8, i8* %136, i64 1310720
  %157 = getelementptr i8, i8* %137, i64 32
  %158 = bitcast i8* %156 to i64*
  %159 = load i64, i64* %158, align 1
  %160 = bitcast i8* %157 to i64*
  store i64 %159, i64* %160, align 1
  %161 = getelementptr i8, i8* %136, i64 1638400
  %162 = getelementptr i8, i8* %137, i64 40
  %163 = bitcast i8* %161 to i64*
  %164 = load i64, i64* %163, align 1
  %165 = bitcast i8* %162 to i64*
  store i64 %164, i64* %165, align 1
  %166 = getelementptr i8, i8* %136, i64 1966080
  %167 = getelementptr i8, i8* %137, i64 48
  %168 = bitcast i8* %166 to i64*
  %169 = load i64, i64* %168, align 1
  %170 = bitcast i8* %167 to i64*
  store i64 %169, i64* %170, align 1
  %171 = getelementptr i8, i8* %136, i64 2293760
  %172 = getelementptr i8, i8* %137, i64 56
  %173 = bitcast i8* %171 to i64*
  %174 = load i64, i64* %173, align 1
  %175 = bitcast i8* %172 to i64*
  store i64 %174, i64* %175, align 1
  %176 = getelementptr i8, i8* %136, i64 2621440
  %177 = getelementptr i8, i8* %137, i64 64
  %178 = bitcast i8* %176 to i64*
  %179 = load i64, i64* %178, align 1
  %180 = bitcast i8* %177 to i64*
  store i64 %179, i64* %180, align 1
  %181 = getelementptr i8, i8* %136, i64 2949120
  %182 = getelementptr i8, i8* %137, i64 72
  %183 = bitcast i8* %181 to i64*
  %184 = load i64, i64* %183, align 1
  %185 = bitcast i8* %182 to i64*
  store i64 %184, i64* %185, align 1
  %186 = getelementptr i8, i8* %136, i64 3276800
  %187 = getelementptr i8, i8* %137, i64 80
  %188 = bitcast i8* %186 to i64*
  %189 = load i64, i64* %188, align 1
  %190 = bitcast i8* %187 to i64*
  store i64 %189, i64* %190, align 1
  %191 = getelementptr i8, i8* %136, i64 3604480
  %192 = getelementptr i8, i8* %137, i64 88
  %193 = bitcast i8* %191 to i64*
  %194 = load i64, i64* %193, align 1
  %195 = bitcast i8* %192 to i64*
  store i64 %194, i64* %195, align 1
  %196 = getelementptr i8, i8* %136, i64 3932160
  %197 = getelementptr i8, i8* %137, i64 96
  %198 = bitcast i8* %196 to i64*
  %199 = load i64, i64* %198, align 1
  %200 = bitcast i8* %197 to i64*
  store i64 %199, i64* %200, align 1
  %201 = getelementptr i8, i8* %136, i64 4259840
  %202 = getelementptr i8, i8* %137, i64 104
  %203 = bitcast i8* %201 to i64*
  %204 = load i64, i64* %203, align 1
  %205 = bitcast i8* %202 to i64*
  store i64 %204, i64* %205, align 1
  %206 = getelementptr i8, i8* %136, i64 4587520
  %207 = getelementptr i8, i8* %137, i64 112
  %208 = bitcast i8* %206 to i64*
  %209 = load i64, i64* %208, align 1
  %210 = bitcast i8* %207 to i64*
  store i64 %209, i64* %210, align 1
  %211 = getelementptr i8, i8* %136, i64 4915200
  %212 = getelementptr i8, i8* %137, i64 120
  %213 = bitcast i8* %211 to i64*
  %214 = load i64, i64* %213, align 1
  %215 = bitcast i8* %212 to i64*
  store i64 %214, i64* %215, align 1
  %216 = getelementptr i8, i8* %136, i64 5242880
  %217 = getelementptr i8, i8* %137, i64 128
  %218 = bitcast i8* %216 to i64*
  %219 = load i64, i64* %218, align 1
  %220 = bitcast i8* %217 to i64*
  store i64 %219, i64* %220, align 1
  %221 = getelementptr i8, i8* %136, i64 5570560
  %222 = getelementptr i8, i8* %137, i64 136
  %223 = bitcast i8* %221 to i64*
  %224 = load i64, i64* %223, align 1
  %225 = bitcast i8* %222 to i64*
  store i64 %224, i64* %225, align 1
  %226 = getelementptr i8, i8* %136, i64 5898240
  %227 = getelementptr i8, i8* %137, i64 144
  %228 = bitcast i8* %226 to i64*
  %229 = load i64, i64* %228, align 1
  %230 = bitcast i8* %227 to i64*
  store i64 %229, i64* %230, align 1
  %231 = getelementptr i8, i8* %136, i64 6225920
  %232 = getelementptr i8, i8* %137, i64 152
  %233 = bitcast i8* %231 to i64*
  %234 = load i64, i64* %233, align 1
  %235 = bitcast i8* %232 to i64*
  store i64 %234, i64* %235, align 1
  %236 = getelementptr i8, i8* %136, i64 6553600
  %237 = getelementptr i8, i8* %137, i64 160
  %238 = bitcast i8* %236 to i64*
  %239 = load i64, i64* %238, align 1
  %240 = bitcast i8* %237 to i64*
  store i64 %239, i64* %240, align 1
  %241 = getelementptr i8, i8* %136, i64 6881280
  %242 = getelementptr i8, i8* %137, i64 168
  %243 = bitcast i8* %241 to i64*
  %244 = load i64, i64* %243, align 1
  %245 = bitcast i8* %242 to i64*
  store i64 %244, i64* %245, align 1
  %246 = getelementptr i8, i8* %136, i64 7208960
  %247 = getelementptr i8, i8* %137, i64 176
  %248 = bitcast i8* %246 to i64*
  %249 = load i64, i64* %248, align 1
  %250 = bitcast i8* %247 to i64*
  store i64 %249, i64* %250, align 1
  %251 = getelementptr i8, i8* %136, i64 7536640
  %252 = getelementptr i8, i8* %137, i64 184
  %253 = bitcast i8* %251 to i64*
  %254 = load i64, i64* %253, align 1
  %255 = bitcast i8* %252 to i64*
  store i64 %254, i64* %255, align 1
  %256 = getelementptr i8, i8* %136, i64 8
  %257 = getelementptr i8, i8* %17, i64 384
  %258 = bitcast i8* %256 to i64*
  %259 = load i64, i64* %258, align 1
  %260 = bitcast i8* %257 to i64*
  store i64 %259, i64* %260, align 1
  %261 = getelementptr i8, i8* %256, i64 327680
  %262 = getelementptr i8, i8* %257, i64 8
  %263 = bitcast i8* %261 to i64*
  %264 = load i64, i64* %263, align 1
  %265 = bitcast i8* %262 to i64*
  store i64 %264, i64* %265, align 1
  %266 = getelementptr i8, i8* %256, i64 655360
  %267 = getelementptr i8, i8* %257, i64 16
  %268 = bitcast i8* %266 to i64*
  %269 = load i64, i64* %268, align 1
  %270 = bitcast i8* %267 to i64*
  store i64 %269, i64* %270, align 1
  %271 = getelementptr i8, i8* %256, i64 983040
  %272 = getelementptr i8, i8* %257, i64 24
  %273 = bitcast i8* %271 to i64*
  %274 = load i64, i64* %273, align 1
  %275 = bitcast i8* %272 to i64*
  store i64 %274, i64* %275, align 1
  %276 = getelementptr i8, i8* %256, i64 1310720
  %277 = getelementptr i8, i8* %257, i64 32
  %278 = bitcast i8* %276 to i64*
  %279 = load i64, i64* %278, align 1
  %280 = bitcast i8* %277 to i64*
  store i64 %279, i64* %280, align 1
  %281 = getelementptr i8, i8* %256, i64 1638400
  %282 = getelementptr i8, i8* %257, i64 40
  %283 = bitcast i8* %281 to i64*
  %284 = load i64, i64* %283, align 1
  %285 = bitcast i8* %282 to i64*
  store i64 %284, i64* %285, align 1
  %286 = getelementptr i8, i8* %256, i64 1966080
  %287 = getelementptr i8, i8* %257, i64 48
  %288 = bitcast i8* %286 to i64*
  %289 = load i64, i64* %288, align 1
  %290 = bitcast i8* %287 to i64*
  store i64 %289, i64* %290, align 1
  %291 = getelementptr i8, i8* %256, i64 2293760
  %292 = getelementptr i8, i8* %257, i64 56
  %293 = bitcast i8* %291 to i64*
  %294 = load i64, i64* %293, align 1
  %295 = bitcast i8* %292 to i64*
  store i64 %294, i64* %295, align 1
  %296 = getelementptr i8, i8* %256, i64 2621440
  %297 = getelementptr i8, i8* %257, i64 64
  %298 = bitcast i8* %296 to i64*
  %299 = load i64, i64* %298, align 1
  %300 = bitcast i8* %297 to i64*
  store i64 %299, i64* %300, align 1
  %301 = getelementptr i8, i8* %256, i64 2949120
  %302 = getelementptr i8, i8* %257, i64 72
  %303 = bitcast i8* %301 to i64*
  %304 = load i64, i64* %303, align 1
  %305 = bitcast i8* %302 to i64*
  store i64 %304, i64* %305, align 1
  %306 = getelementptr i8, i8* %256, i64 3276800
  %307 = getelementptr i8, i8* %257, i64 80
  %308 = bitcast i8* %306 to i64*
  %309 = load i64, i64* %308, align 1
  %310 = bitcast i8* %307 to i64*
  store i64 %309, i64* %310, align 1
  %311 = getelementptr i8, i8* %256, i64 3604480
  %312 = getelementptr i8, i8* %257, i64 88
  %313 = bitcast i8* %311 to i64*
  %314 = load i64, i64* %313, align 1
  %315 = bitcast i8* %312 to i64*
  store i64 %314, i64* %315, align 1
  %316 = getelementptr i8, i8* %256, i64 3932160
  %317 = getelementptr i8, i8* %257, i64 96
  %318 = bitcast i8* %316 to i64*
  %319 = load i64, i64* %318, align 1
  %320 = bitcast i8* %317 to i64*
  store i64 %319, i64* %320, align 1
  %321 = getelementptr i8, i8* %256, i64 4259840
  %322 = getelementptr i8, i8* %257, i64 104
  %323 = bitcast i8* %321 to i64*
  %324 = load i64, i64* %323, align 1
  %325 = bitcast i8* %322 to i64*
  store i64 %324, i64* %325, align 1
  %326 = getelementptr i8, i8* %256, i64 4587520
  %327 = getelementptr i8, i8* %257, i64 112
  %328 = bitcast i8* %326 to i64*
  %329 = load i64, i64* %328, align 1
  %330 = bitcast i8* %327 to i64*
  store i64 %329, i64* %330, align 1
  %331 = getelementptr i8, i8* %256, i64 4915200
  %332 = getelementptr i8, i8* %257, i64 120
  %333 = bitcast i8* %331 to i64*
  %334 = load i64, i64* %333, align 1
  %335 = bitcast i8* %332 to i64*
  store i64 %334, i64* %335, align 1
  %336 = getelementptr i8, i8* %256, i64 5242880
  %337 = getelementptr i8, i8* %257, i64 128
  %338 = bitcast i8* %336 to i64*
  %339 = load i64, i64* %338, align 1
  %340 = bitcast i8* %337 to i64*
  store i64 %339, i64* %340, align 1
  %341 = getelementptr i8, i8* %256, i64 5570560
  %342 = getelementptr i8, i8* %257, i64 136
  %343 = bitcast i8* %341 to i64*
  %344 = load i64, i64* %343, align 1
  %345 = bitcast i8* %342 to i64*
  store i64 %344, i64* %345, align 1
  %346 = getelementptr i8, i8* %256, i64 5898240
  %347 = getelementptr i8, i8* %257, i64 144
  %348 = bitcast i8* %346 to i64*
  %349 = load i64, i64* %348, align 1
  %350 = bitcast i8* %347 to i64*
  store i64 %349, i64* %350, align 1
  %351 = getelementptr i8, i8* %256, i64 6225920
  %352 = getelementptr i8, i8* %257, i64 152
  %353 = bitcast i8* %351 to i64*
  %354 = load i64, i64* %353, align 1
  %355 = bitcast i8* %352 to i64*
  store i64 %354, i64* %355, align 1
  %356 = getelementptr i8, i8* %256, i64 6553600
  %357 = getelementptr i8, i8* %257, i64 160
  %358 = bitcast i8* %356 to i64*
  %359 = load i64, i64* %358, align 1
  %360 = bitcast i8* %357 to i64*
  store i64 %359, i64* %360, align 1
  %361 = getelementptr i8, i8* %256, i64 6881280
  %362 = getelementptr i8, i8* %257, i64 168
  %363 = bitcast i8* %361 to i64*
  %364 = load i64, i64* %363, align 1
  %365 = bitcast i8* %362 to i64*
  store i64 %364, i64* %365, align 1
  %366 = getelementptr i8, i8* %256, i64 7208960
  %367 = getelementptr i8, i8* %257, i64 176
  %368 = bitcast i8* %366 to i64*
  %369 = load i64, i64* %368, align 1
  %370 = bitcast i8* %367 to i64*
  store i64 %369, i64* %370, align 1
  %371 = getelementptr i8, i8* %256, i64 7536640
  %372 = getelementptr i8, i8* %257, i64 184
  %373 = bitcast i8* %371 to i64*
  %374 = load i64, i64* %373, align 1
  %375 = bitcast i8* %372 to i64*
  store i64 %374, i64* %375, align 1
  %376 = getelementptr i8, i8* %256, i64 8
  %377 = getelementptr i8, i8* %17, i64 576
  %378 = bitcast i8* %376 to i64*
  %379 = load i64, i64* %378, align 1
  %380 = bitcast i8* %377 to i64*
  store i64 %379, i64* %380, align 1
  %381 = getelementptr i8, i8* %376, i64 327680
  %382 = getelementptr i8, i8* %377, i64 8
  %383 = bitcast i8* %381 to i64*
  %384 = load i64, i64* %383, align 1
  %385 = bitcast i8* %382 to i64*
  store i64 %384, i64* %385, align 1
  %386 = getelementptr i8, i8* %376, i64 655360
  %387 = getelementptr i8, i8* %377, i64 16
  %388 = bitcast i8* %386 to i64*
  %389 = load i64, i64* %388, align 1
  %390 = bitcast i8* %387 to i64*
  store i64 %389, i64* %390, align 1
  %391 = getelementptr i8, i8* %376, i64 983040
  %392 = getelementptr i8, i8* %377, i64 24
  %393 = bitcast i8* %391 to i64*
  %394 = load i64, i64* %393, align 1
  %395 = bitcast i8* %392 to i64*
  store i64 %394, i64* %395, align 1
  %396 = getelementptr i8, i8* %376, i64 1310720
  %397 = getelementptr i8, i8* %377, i64 32
  %398 = bitcast i8* %396 to i64*
  %399 = load i64, i64* %398, align 1
  %400 = bitcast i8* %397 to i64*
  store i64 %399, i64* %400, align 1
  %401 = getelementptr i8, i8* %376, i64 1638400
  %402 = getelementptr i8, i8* %377, i64 40
  %403 = bitcast i8* %401 to i64*
  %404 = load i64, i64* %403, align 1
  %405 = bitcast i8* %402 to i64*
  store i64 %404, i64* %405, align 1
  %406 = getelementptr i8, i8* %376, i64 1966080
  %407 = getelementptr i8, i8* %377, i64 48
  %408 = bitcast i8* %406 to i64*
  %409 = load i64, i64* %408, align 1
  %410 = bitcast i8* %407 to i64*
  store i64 %409, i64* %410, align 1
  %411 = getelementptr i8, i8* %376, i64 2293760
  %412 = getelementptr i8, i8* %377, i64 56
  %413 = bitcast i8* %411 to i64*
  %414 = load i64, i64* %413, align 1
  %415 = bitcast i8* %412 to i64*
  store i64 %414, i64* %415, align 1
  %416 = getelementptr i8, i8* %376, i64 2621440
  %417 = getelementptr i8, i8* %377, i64 64
  %418 = bitcast i8* %416 to i64*
  %419 = load i64, i64* %418, align 1
  %420 = bitcast i8* %417 to i64*
  store i64 %419, i64* %420, align 1
  %421 = getelementptr i8, i8* %376, i64 2949120
  %422 = getelementptr i8, i8* %377, i64 72
  %423 = bitcast i8* %421 to i64*
  %424 = load i64, i64* %423, align 1
  %425 = bitcast i8* %422 to i64*
  store i64 %424, i64* %425, align 1
  %426 = getelementptr i8, i8* %376, i64 3276800
  %427 = getelementptr i8, i8* %377, i64 80
  %428 = bitcast i8* %426 to i64*
  %429 = load i64, i64* %428, align 1
  %430 = bitcast i8* %427 to i64*
  store i64 %429, i64* %430, align 1
  %431 = getelementptr i8, i8* %376, i64 3604480
  %432 = getelementptr i8, i8* %377, i64 88
  %433 = bitcast i8* %431 to i64*
  %434 = load i64, i64* %433, align 1
  %435 = bitcast i8* %432 to i64*
  store i64 %434, i64* %435, align 1
  %436 = getelementptr i8, i8* %376, i64 3932160
  %437 = getelementptr i8, i8* %377, i64 96
  %438 = bitcast i8* %436 to i64*
  %439 = load i64, i64* %438, align 1
  %440 = bitcast i8* %437 to i64*
  store i64 %439, i64* %440, align 1
  %441 = getelementptr i8, i8* %376, i64 4259840
  %442 = getelementptr i8, i8* %377, i64 104
  %443 = bitcast i8* %441 to i64*
  %444 = load i64, i64* %443, align 1
  %445 = bitcast i8* %442 to i64*
  store i64 %444, i64* %445, align 1
  %446 = getelementptr i8, i8* %376, i64 4587520
  %447 = getelementptr i8, i8* %377, i64 112
  %448 = bitcast i8* %446 to i64*
  %449 = load i64, i64* %448, align 1
  %450 = bitcast i8* %447 to i64*
  store i64 %449, i64* %450, align 1
  %451 = getelementptr i8, i8* %376, i64 4915200
  %452 = getelementptr i8, i8* %377, i64 120
  %453 = bitcast i8* %451 to i64*
  %454 = load i64, i64* %453, align 1
  %455 = bitcast i8* %452 to i64*
  store i64 %454, i64* %455, align 1
  %456 = getelementptr i8, i8* %376, i64 5242880
  %457 = getelementptr i8, i8* %377, i64 128
  %458 = bitcast i8* %456 to i64*
  %459 = load i64, i64* %458, align 1
  %460 = bitcast i8* %457 to i64*
  store i64 %459, i64* %460, align 1
  %461 = getelementptr i8, i8* %376, i64 5570560
  %462 = getelementptr i8, i8* %377, i64 136
  %463 = bitcast i8* %461 to i64*
  %464 = load i64, i64* %463, align 1
  %465 = bitcast i8* %462 to i64*
  store i64 %464, i64* %465, align 1
  %466 = getelementptr i8, i8* %376, i64 5898240
  %467 = getelementptr i8, i8* %377, i64 144
  %468 = bitcast i8* %466 to i64*
  %469 = load i64, i64* %468, align 1
  %470 = bitcast i8* %467 to i64*
  store i64 %469, i64* %470, align 1
  %471 = getelementptr i8, i8* %376, i64 6225920
  %472 = getelementptr i8, i8* %377, i64 152
  %473 = bitcast i8* %471 to i64*
  %474 = load i64, i64* %473, align 1
  %475 = bitcast i8* %472 to i64*
  store i64 %474, i64* %475, align 1
  %476 = getelementptr i8, i8* %376, i64 6553600
  %477 = getelementptr i8, i8* %377, i64 160
  %478 = bitcast i8* %476 to i64*
  %479 = load i64, i64* %478, align 1
  %480 = bitcast i8* %477 to i64*
  store i64 %479, i64* %480, align 1
  %481 = getelementptr i8, i8* %376, i64 6881280
  %482 = getelementptr i8, i8* %377, i64 168
  %483 = bitcast i8* %481 to i64*
  %484 = load i64, i64* %483, align 1
  %485 = bitcast i8* %482 to i64*
  store i64 %484, i64* %485, align 1
  %486 = getelementptr i8, i8* %376, i64 7208960
  %487 = getelementptr i8, i8* %377, i64 176
  %488 = bitcast i8* %486 to i64*
  %489 = load i64, i64* %488, align 1
  %490 = bitcast i8* %487 to i64*
  store i64 %489, i64* %490, align 1
  %491 = getelementptr i8, i8* %376, i64 7536640
  %492 = getelementptr i8, i8* %377, i64 184
  %493 = bitcast i8* %491 to i64*
  %494 = load i64, i64* %493, align 1
  %495 = bitcast i8* %492 to i64*
  store i64 %494, i64* %495, align 1
  %496 = getelementptr i8, i8* %376, i64 8
  %497 = getelementptr i8, i8* %17, i64 768
  %498 = bitcast i8* %496 to i64*
  %499 = load i64, i64* %498, align 1
  %500 = bitcast i8* %497 to i64*
  store i64 %499, i64* %500, align 1
  %501 = getelementptr i8, i8* %496, i64 327680
  %502 = getelementptr i8, i8* %497, i64 8
  %503 = bitcast i8* %501 to i64*
  %504 = load i64, i64* %503, align 1
  %505 = bitcast i8* %502 to i64*
  store i64 %504, i64* %505, align 1
  %506 = getelementptr i8, i8* %496, i64 655360
  %507 = getelementptr i8, i8* %497, i64 16
  %508 = bitcast i8* %506 to i64*
  %509 = load i64, i64* %508, align 1
  %510 = bitcast i8* %507 to i64*
  store i64 %509, i64* %510, align 1
  %511 = getelementptr i8, i8* %496, i64 983040
  %512 = getelementptr i8, i8* %497, i64 24
  %513 = bitcast i8* %511 to i64*
  %514 = load i64, i64* %513, align 1
  %515 = bitcast i8* %512 to i64*
  store i64 %514, i64* %515, align 1
  %516 = getelementptr i8, i8* %496, i64 1310720
  %517 = getelementptr i8, i8* %497, i64 32
  %518 = bitcast i8* %516 to i64*
  %519 = load i64, i64* %518, align 1
  %520 = bitcast i8* %517 to i64*
  store i64 %519, i64* %520, align 1
  %521 = getelementptr i8, i8* %496, i64 1638400
  %522 = getelementptr i8, i8* %497, i64 40
  %523 = bitcast i8* %521 to i64*
  %524 = load i64, i64* %523, align 1
  %525 = bitcast i8* %522 to i64*
  store i64 %524, i64* %525, align 1
  %526 = getelementptr i8, i8* %496, i64 1966080
  %527 = getelementptr i8, i8* %497, i64 48
  %528 = bitcast i8* %526 to i64*
  %529 = load i64, i64* %528, align 1
  %530 = bitcast i8* %527 to i64*
  store i64 %529, i64* %530, align 1
  %531 = getelementptr i8, i8* %496, i64 2293760
  %532 = getelementptr i8, i8* %497, i64 56
  %533 = bitcast i8* %531 to i64*
  %534 = load i64, i64* %533, align 1
  %535 = bitcast i8* %532 to i64*
  store i64 %534, i64* %535, align 1
  %536 = getelementptr i8, i8* %496, i64 2621440
  %537 = getelementptr i8, i8* %497, i64 64
  %538 = bitcast i8* %536 to i64*
  %539 = load i64, i64* %538, align 1
  %540 = bitcast i8* %537 to i64*
  store i64 %539, i64* %540, align 1
  %541 = getelementptr i8, i8* %496, i64 2949120
  %542 = getelementptr i8, i8* %497, i64 72
  %543 = bitcast i8* %541 to i64*
  %544 = load i64, i64* %543, align 1
  %545 = bitcast i8* %542 to i64*
  store i64 %544, i64* %545, align 1
  %546 = getelementptr i8, i8* %496, i64 3276800
  %547 = getelementptr i8, i8* %497, i64 80
  %548 = bitcast i8* %546 to i64*
  %549 = load i64, i64* %548, align 1
  %550 = bitcast i8* %547 to i64*
  store i64 %549, i64* %550, align 1
  %551 = getelementptr i8, i8* %496, i64 3604480
  %552 = getelementptr i8, i8* %497, i64 88
  %553 = bitcast i8* %551 to i64*
  %554 = load i64, i64* %553, align 1
  %555 = bitcast i8* %552 to i64*
  store i64 %554, i64* %555, align 1
  %556 = getelementptr i8, i8* %496, i64 3932160
  %557 = getelementptr i8, i8* %497, i64 96
  %558 = bitcast i8* %556 to i64*
  %559 = load i64, i64* %558, align 1
  %560 = bitcast i8* %557 to i64*
  store i64 %559, i64* %560, align 1
  %561 = getelementptr i8, i8* %496, i64 4259840
  %562 = getelementptr i8, i8* %497, i64 104
  %563 = bitcast i8* %561 to i64*
  %564 = load i64, i64* %563, align 1
  %565 = bitcast i8* %562 to i64*
  store i64 %564, i64* %565, align 1
  %566 = getelementptr i8, i8* %496, i64 4587520
  %567 = getelementptr i8, i8* %497, i64 112
  %568 = bitcast i8* %566 to i64*
  %569 = load i64, i64* %568, align 1
  %570 = bitcast i8* %567 to i64*
  store i64 %569, i64* %570, align 1
  %571 = getelementptr i8, i8* %496, i64 4915200
  %572 = getelementptr i8, i8* %497, i64 120
  %573 = bitcast i8* %571 to i64*
  %574 = load i64, i64* %573, align 1
  %575 = bitcast i8* %572 to i64*
  store i64 %574, i64* %575, align 1
  %576 = getelementptr i8, i8* %496, i64 5242880
  %577 = getelementptr i8, i8* %497, i64 128
  %578 = bitcast i8* %576 to i64*
  %579 = load i64, i64* %578, align 1
  %580 = bitcast i8* %577 to i64*
  store i64 %579, i64* %580, align 1
  %581 = getelementptr i8, i8* %496, i64 5570560
  %582 = getelementptr i8, i8* %497, i64 136
  %583 = bitcast i8* %581 to i64*
  %584 = load i64, i64* %583, align 1
  %585 = bitcast i8* %582 to i64*
  store i64 %584, i64* %585, align 1
  %586 = getelementptr i8, i8* %496, i64 5898240
  %587 = getelementptr i8, i8* %497, i64 144
  %588 = bitcast i8* %586 to i64*
  %589 = load i64, i64* %588, align 1
  %590 = bitcast i8* %587 to i64*
  store i64 %589, i64* %590, align 1
  %591 = getelementptr i8, i8* %496, i64 6225920
  %592 = getelementptr i8, i8* %497, i64 152
  %593 = bitcast i8* %591 to i64*
  %594 = load i64, i64* %593, align 1
  %595 = bitcast i8* %592 to i64*
  store i64 %594, i64* %595, align 1
  %596 = getelementptr i8, i8* %496, i64 6553600
  %597 = getelementptr i8, i8* %497, i64 160
  %598 = bitcast i8* %596 to i64*
  %599 = load i64, i64* %598, align 1
  %600 = bitcast i8* %597 to i64*
  store i64 %599, i64* %600, align 1
  %601 = getelementptr i8, i8* %496, i64 6881280
  %602 = getelementptr i8, i8* %497, i64 168
  %603 = bitcast i8* %601 to i64*
  %604 = load i64, i64* %603, align 1
  %605 = bitcast i8* %602 to i64*
  store i64 %604, i64* %605, align 1
  %606 = getelementptr i8, i8* %496, i64 7208960
  %607 = getelementptr i8, i8* %497, i64 176
  %608 = bitcast i8* %606 to i64*
  %609 = load i64, i64* %608, align 1
  %610 = bitcast i8* %607 to i64*
  store i64 %609, i64* %610, align 1
  %611 = getelementptr i8, i8* %496, i64 7536640
  %612 = getelementptr i8, i8* %497, i64 184
  %613 = bitcast i8* %611 to i64*
  %614 = load i64, i64* %613, align 1
  %615 = bitcast i8* %612 to i64*
  store i64 %614, i64* %615, align 1
  %616 = getelementptr i8, i8* %496, i64 8
  %617 = getelementptr i8, i8* %17, i64 960
  %618 = bitcast i8* %616 to i64*
  %619 = load i64, i64* %618, align 1
  %620 = bitcast i8* %617 to i64*
  store i64 %619, i64* %620, align 1
  %621 = getelementptr i8, i8* %616, i64 327680
  %622 = getelementptr i8, i8* %617, i64 8
  %623 = bitcast i8* %621 to i64*
  %624 = load i64, i64* %623, align 1
  %625 = bitcast i8* %622 to i64*
  store i64 %624, i64* %625, align 1
  %626 = getelementptr i8, i8* %616, i64 655360
  %627 = getelementptr i8, i8* %617, i64 16
  %628 = bitcast i8* %626 to i64*
  %629 = load i64, i64* %628, align 1
  %630 = bitcast i8* %627 to i64*
  store i64 %629, i64* %630, align 1
  %631 = getelementptr i8, i8* %616, i64 983040
  %632 = getelementptr i8, i8* %617, i64 24
  %633 = bitcast i8* %631 to i64*
  %634 = load i64, i64* %633, align 1
  %635 = bitcast i8* %632 to i64*
  store i64 %634, i64* %635, align 1
  %636 = getelementptr i8, i8* %616, i64 1310720
  %637 = getelementptr i8, i8* %617, i64 32
  %638 = bitcast i8* %636 to i64*
  %639 = load i64, i64* %638, align 1
  %640 = bitcast i8* %637 to i64*
  store i64 %639, i64* %640, align 1
  %641 = getelementptr i8, i8* %616, i64 1638400
  %642 = getelementptr i8, i8* %617, i64 40
  %643 = bitcast i8* %641 to i64*
  %644 = load i64, i64* %643, align 1
  %645 = bitcast i8* %642 to i64*
  store i64 %644, i64* %645, align 1
  %646 = getelementptr i8, i8* %616, i64 1966080
  %647 = getelementptr i8, i8* %617, i64 48
  %648 = bitcast i8* %646 to i64*
  %649 = load i64, i64* %648, align 1
  %650 = bitcast i8* %647 to i64*
  store i64 %649, i64* %650, align 1
  %651 = getelementptr i8, i8* %616, i64 2293760
  %652 = getelementptr i8, i8* %617, i64 56
  %653 = bitcast i8* %651 to i64*
  %654 = load i64, i64* %653, align 1
  %655 = bitcast i8* %652 to i64*
  store i64 %654, i64* %655, align 1
  %656 = getelementptr i8, i8* %616, i64 2621440
  %657 = getelementptr i8, i8* %617, i64 64
  %658 = bitcast i8* %656 to i64*
  %659 = load i64, i64* %658, align 1
  %660 = bitcast i8* %657 to i64*
  store i64 %659, i64* %660, align 1
  %661 = getelementptr i8, i8* %616, i64 2949120
  %662 = getelementptr i8, i8* %617, i64 72
  %663 = bitcast i8* %661 to i64*
  %664 = load i64, i64* %663, align 1
  %665 = bitcast i8* %662 to i64*
  store i64 %664, i64* %665, align 1
  %666 = getelementptr i8, i8* %616, i64 3276800
  %667 = getelementptr i8, i8* %617, i64 80
  %668 = bitcast i8* %666 to i64*
  %669 = load i64, i64* %668, align 1
  %670 = bitcast i8* %667 to i64*
  store i64 %669, i64* %670, align 1
  %671 = getelementptr i8, i8* %616, i64 3604480
  %672 = getelementptr i8, i8* %617, i64 88
  %673 = bitcast i8* %671 to i64*
  %674 = load i64, i64* %673, align 1
  %675 = bitcast i8* %672 to i64*
  store i64 %674, i64* %675, align 1
  %676 = getelementptr i8, i8* %616, i64 3932160
  %677 = getelementptr i8, i8* %617, i64 96
  %678 = bitcast i8* %676 to i64*
  %679 = load i64, i64* %678, align 1
  %680 = bitcast i8* %677 to i64*
  store i64 %679, i64* %680, align 1
  %681 = getelementptr i8, i8* %616, i64 4259840
  %682 = getelementptr i8, i8* %617, i64 104
  %683 = bitcast i8* %681 to i64*
  %684 = load i64, i64* %683, align 1
  %685 = bitcast i8* %682 to i64*
  store i64 %684, i64* %685, align 1
  %686 = getelementptr i8, i8* %616, i64 4587520
  %687 = getelementptr i8, i8* %617, i64 112
  %688 = bitcast i8* %686 to i64*
  %689 = load i64, i64* %688, align 1
  %690 = bitcast i8* %687 to i64*
  store i64 %689, i64* %690, align 1
  %691 = getelementptr i8, i8* %616, i64 4915200
  %692 = getelementptr i8, i8* %617, i64 120
  %693 = bitcast i8* %691 to i64*
  %694 = load i64, i64* %693, align 1
  %695 = bitcast i8* %692 to i64*
  store i64 %694, i64* %695, align 1
  %696 = getelementptr i8, i8* %616, i64 5242880
  %697 = getelementptr i8, i8* %617, i64 128
  %698 = bitcast i8* %696 to i64*
  %699 = load i64, i64* %698, align 1
  %700 = bitcast i8* %697 to i64*
  store i64 %699, i64* %700, align 1
  %701 = getelementptr i8, i8* %616, i64 5570560
  %702 = getelementptr i8, i8* %617, i64 136
  %703 = bitcast i8* %701 to i64*
  %704 = load i64, i64* %703, align 1
  %705 = bitcast i8* %702 to i64*
  store i64 %704, i64* %705, align 1
  %706 = getelementptr i8, i8* %616, i64 5898240
  %707 = getelementptr i8, i8* %617, i64 144
  %708 = bitcast i8* %706 to i64*
  %709 = load i64, i64* %708, align 1
  %710 = bitcast i8* %707 to i64*
  store i64 %709, i64* %710, align 1
  %711 = getelementptr i8, i8* %616, i64 6225920
  %712 = getelementptr i8, i8* %617, i64 152
  %713 = bitcast i8* %711 to i64*
  %714 = load i64, i64* %713, align 1
  %715 = bitcast i8* %712 to i64*
  store i64 %714, i64* %715, align 1
  %716 = getelementptr i8, i8* %616, i64 6553600
  %717 = getelementptr i8, i8* %617, i64 160
  %718 = bitcast i8* %716 to i64*
  %719 = load i64, i64* %718, align 1
  %720 = bitcast i8* %717 to i64*
  store i64 %719, i64* %720, align 1
  %721 = getelementptr i8, i8* %616, i64 6881280
  %722 = getelementptr i8, i8* %617, i64 168
  %723 = bitcast i8* %721 to i64*
  %724 = load i64, i64* %723, align 1
  %725 = bitcast i8* %722 to i64*
  store i64 %724, i64* %725, align 1
  %726 = getelementptr i8, i8* %616, i64 7208960
  %727 = getelementptr i8, i8* %617, i64 176
  %728 = bitcast i8* %726 to i64*
  %729 = load i64, i64* %728, align 1
  %730 = bitcast i8* %727 to i64*
  store i64 %729, i64* %730, align 1
  %731 = getelementptr i8, i8* %616, i64 7536640
  %732 = getelementptr i8, i8* %617, i64 184
  %733 = bitcast i8* %731 to i64*
  %734 = load i64, i64* %733, align 1
  %735 = bitcast i8* %732 to i64*
  store i64 %734, i64* %735, align 1
  %736 = getelementptr i8, i8* %616, i64 8
  %737 = getelementptr i8, i8* %17, i64 1152
  %738 = bitcast i8* %736 to i64*
  %739 = load i64, i64* %738, align 1
  %740 = bitcast i8* %737 to i64*
  store i64 %739, i64* %740, align 1
  %741 = getelementptr i8, i8* %736, i64 327680
  %742 = getelementptr i8, i8* %737, i64 8
  %743 = bitcast i8* %741 to i64*
  %744 = load i64, i64* %743, align 1
  %745 = bitcast i8* %742 to i64*
  store i64 %744, i64* %745, align 1
  %746 = getelementptr i8, i8* %736, i64 655360
  %747 = getelementptr i8, i8* %737, i64 16
  %748 = bitcast i8* %746 to i64*
  %749 = load i64, i64* %748, align 1
  %750 = bitcast i8* %747 to i64*
  store i64 %749, i64* %750, align 1
  %751 = getelementptr i8, i8* %736, i64 983040
  %752 = getelementptr i8, i8* %737, i64 24
  %753 = bitcast i8* %751 to i64*
  %754 = load i64, i64* %753, align 1
  %755 = bitcast i8* %752 to i64*
  store i64 %754, i64* %755, align 1
  %756 = getelementptr i8, i8* %736, i64 1310720
  %757 = getelementptr i8, i8* %737, i64 32
  %758 = bitcast i8* %756 to i64*
  %759 = load i64, i64* %758, align 1
  %760 = bitcast i8* %757 to i64*
  store i64 %759, i64* %760, align 1
  %761 = getelementptr i8, i8* %736, i64 1638400
  %762 = getelementptr i8, i8* %737, i64 40
  %763 = bitcast i8* %761 to i64*
  %764 = load i64, i64* %763, align 1
  %765 = bitcast i8* %762 to i64*
  store i64 %764, i64* %765, align 1
  %766 = getelementptr i8, i8* %736, i64 1966080
  %767 = getelementptr i8, i8* %737, i64 48
  %768 = bitcast i8* %766 to i64*
  %769 = load i64, i64* %768, align 1
  %770 = bitcast i8* %767 to i64*
  store i64 %769, i64* %770, align 1
  %771 = getelementptr i8, i8* %736, i64 2293760
  %772 = getelementptr i8, i8* %737, i64 56
  %773 = bitcast i8* %771 to i64*
  %774 = load i64, i64* %773, align 1
  %775 = bitcast i8* %772 to i64*
  store i64 %774, i64* %775, align 1
  %776 = getelementptr i8, i8* %736, i64 2621440
  %777 = getelementptr i8, i8* %737, i64 64
  %778 = bitcast i8* %776 to i64*
  %779 = load i64, i64* %778, align 1
  %780 = bitcast i8* %777 to i64*
  store i64 %779, i64* %780, align 1
  %781 = getelementptr i8, i8* %736, i64 2949120
  %782 = getelementptr i8, i8* %737, i64 72
  %783 = bitcast i8* %781 to i64*
  %784 = load i64, i64* %783, align 1
  %785 = bitcast i8* %782 to i64*
  store i64 %784, i64* %785, align 1
  %786 = getelementptr i8, i8* %736, i64 3276800
  %787 = getelementptr i8, i8* %737, i64 80
  %788 = bitcast i8* %786 to i64*
  %789 = load i64, i64* %788, align 1
  %790 = bitcast i8* %787 to i64*
  store i64 %789, i64* %790, align 1
  %791 = getelementptr i8, i8* %736, i64 3604480
  %792 = getelementptr i8, i8* %737, i64 88
  %793 = bitcast i8* %791 to i64*
  %794 = load i64, i64* %793, align 1
  %795 = bitcast i8* %792 to i64*
  store i64 %794, i64* %795, align 1
  %796 = getelementptr i8, i8* %736, i64 3932160
  %797 = getelementptr i8, i8* %737, i64 96
  %798 = bitcast i8* %796 to i64*
  %799 = load i64, i64* %798, align 1
  %800 = bitcast i8* %797 to i64*
  store i64 %799, i64* %800, align 1
  %801 = getelementptr i8, i8* %736, i64 4259840
  %802 = getelementptr i8, i8* %737, i64 104
  %803 = bitcast i8* %801 to i64*
  %804 = load i64, i64* %803, align 1
  %805 = bitcast i8* %802 to i64*
  store i64 %804, i64* %805, align 1
  %806 = getelementptr i8, i8* %736, i64 4587520
  %807 = getelementptr i8, i8* %737, i64 112
  %808 = bitcast i8* %806 to i64*
  %809 = load i64, i64* %808, align 1
  %810 = bitcast i8* %807 to i64*
  store i64 %809, i64* %810, align 1
  %811 = getelementptr i8, i8* %736, i64 4915200
  %812 = getelementptr i8, i8* %737, i64 120
  %813 = bitcast i8* %811 to i64*
  %814 = load i64, i64* %813, align 1
  %815 = bitcast i8* %812 to i64*
  store i64 %814, i64* %815, align 1
  %816 = getelementptr i8, i8* %736, i64 5242880
  %817 = getelementptr i8, i8* %737, i64 128
  %818 = bitcast i8* %816 to i64*
  %819 = load i64, i64* %818, align 1
  %820 = bitcast i8* %817 to i64*
  store i64 %819, i64* %820, align 1
  %821 = getelementptr i8, i8* %736, i64 5570560
  %822 = getelementptr i8, i8* %737, i64 136
  %823 = bitcast i8* %821 to i64*
  %824 = load i64, i64* %823, align 1
  %825 = bitcast i8* %822 to i64*
  store i64 %824, i64* %825, align 1
  %826 = getelementptr i8, i8* %736, i64 5898240
  %827 = getelementptr i8, i8* %737, i64 144
  %828 = bitcast i8* %826 to i64*
  %829 = load i64, i64* %828, align 1
  %830 = bitcast i8* %827 to i64*
  store i64 %829, i64* %830, align 1
  %831 = getelementptr i8, i8* %736, i64 6225920
  %832 = getelementptr i8, i8* %737, i64 152
  %833 = bitcast i8* %831 to i64*
  %834 = load i64, i64* %833, align 1
  %835 = bitcast i8* %832 to i64*
  store i64 %834, i64* %835, align 1
  %836 = getelementptr i8, i8* %736, i64 6553600
  %837 = getelementptr i8, i8* %737, i64 160
  %838 = bitcast i8* %836 to i64*
  %839 = load i64, i64* %838, align 1
  %840 = bitcast i8* %837 to i64*
  store i64 %839, i64* %840, align 1
  %841 = getelementptr i8, i8* %736, i64 6881280
  %842 = getelementptr i8, i8* %737, i64 168
  %843 = bitcast i8* %841 to i64*
  %844 = load i64, i64* %843, align 1
  %845 = bitcast i8* %842 to i64*
  store i64 %844, i64* %845, align 1
  %846 = getelementptr i8, i8* %736, i64 7208960
  %847 = getelementptr i8, i8* %737, i64 176
  %848 = bitcast i8* %846 to i64*
  %849 = load i64, i64* %848, align 1
  %850 = bitcast i8* %847 to i64*
  store i64 %849, i64* %850, align 1
  %851 = getelementptr i8, i8* %736, i64 7536640
  %852 = getelementptr i8, i8* %737, i64 184
  %853 = bitcast i8* %851 to i64*
  %854 = load i64, i64* %853, align 1
  %855 = bitcast i8* %852 to i64*
  store i64 %854, i64* %855, align 1
  %856 = getelementptr i8, i8* %736, i64 8
  %857 = getelementptr i8, i8* %17, i64 1344
  %858 = bitcast i8* %856 to i64*
  %859 = load i64, i64* %858, align 1
  %860 = bitcast i8* %857 to i64*
  store i64 %859, i64* %860, align 1
  %861 = getelementptr i8, i8* %856, i64 327680
  %862 = getelementptr i8, i8* %857, i64 8
  %863 = bitcast i8* %861 to i64*
  %864 = load i64, i64* %863, align 1
  %865 = bitcast i8* %862 to i64*
  store i64 %864, i64* %865, align 1
  %866 = getelementptr i8, i8* %856, i64 655360
  %867 = getelementptr i8, i8* %857, i64 16
  %868 = bitcast i8* %866 to i64*
  %869 = load i64, i64* %868, align 1
  %870 = bitcast i8* %867 to i64*
  store i64 %869, i64* %870, align 1
  %871 = getelementptr i8, i8* %856, i64 983040
  %872 = getelementptr i8, i8* %857, i64 24
  %873 = bitcast i8* %871 to i64*
  %874 = load i64, i64* %873, align 1
  %875 = bitcast i8* %872 to i64*
  store i64 %874, i64* %875, align 1
  %876 = getelementptr i8, i8* %856, i64 1310720
  %877 = getelementptr i8, i8* %857, i64 32
  %878 = bitcast i8* %876 to i64*
  %879 = load i64, i64* %878, align 1
  %880 = bitcast i8* %877 to i64*
  store i64 %879, i64* %880, align 1
  %881 = getelementptr i8, i8* %856, i64 1638400
  %882 = getelementptr i8, i8* %857, i64 40
  %883 = bitcast i8* %881 to i64*
  %884 = load i64, i64* %883, align 1
  %885 = bitcast i8* %882 to i64*
  store i64 %884, i64* %885, align 1
  %886 = getelementptr i8, i8* %856, i64 1966080
  %887 = getelementptr i8, i8* %857, i64 48
  %888 = bitcast i8* %886 to i64*
  %889 = load i64, i64* %888, align 1
  %890 = bitcast i8* %887 to i64*
  store i64 %889, i64* %890, align 1
  %891 = getelementptr i8, i8* %856, i64 2293760
  %892 = getelementptr i8, i8* %857, i64 56
  %893 = bitcast i8* %891 to i64*
  %894 = load i64, i64* %893, align 1
  %895 = bitcast i8* %892 to i64*
  store i64 %894, i64* %895, align 1
  %896 = getelementptr i8, i8* %856, i64 2621440
  %897 = getelementptr i8, i8* %857, i64 64
  %898 = bitcast i8* %896 to i64*
  %899 = load i64, i64* %898, align 1
  %900 = bitcast i8* %897 to i64*
  store i64 %899, i64* %900, align 1
  %901 = getelementptr i8, i8* %856, i64 2949120
  %902 = getelementptr i8, i8* %857, i64 72
  %903 = bitcast i8* %901 to i64*
  %904 = load i64, i64* %903, align 1
  %905 = bitcast i8* %902 to i64*
  store i64 %904, i64* %905, align 1
  %906 = getelementptr i8, i8* %856, i64 3276800
  %907 = getelementptr i8, i8* %857, i64 80
  %908 = bitcast i8* %906 to i64*
  %909 = load i64, i64* %908, align 1
  %910 = bitcast i8* %907 to i64*
  store i64 %909, i64* %910, align 1
  %911 = getelementptr i8, i8* %856, i64 3604480
  %912 = getelementptr i8, i8* %857, i64 88
  %913 = bitcast i8* %911 to i64*
  %914 = load i64, i64* %913, align 1
  %915 = bitcast i8* %912 to i64*
  store i64 %914, i64* %915, align 1
  %916 = getelementptr i8, i8* %856, i64 3932160
  %917 = getelementptr i8, i8* %857, i64 96
  %918 = bitcast i8* %916 to i64*
  %919 = load i64, i64* %918, align 1
  %920 = bitcast i8* %917 to i64*
  store i64 %919, i64* %920, align 1
  %921 = getelementptr i8, i8* %856, i64 4259840
  %922 = getelementptr i8, i8* %857, i64 104
  %923 = bitcast i8* %921 to i64*
  %924 = load i64, i64* %923, align 1
  %925 = bitcast i8* %922 to i64*
  store i64 %924, i64* %925, align 1
  %926 = getelementptr i8, i8* %856, i64 4587520
  %927 = getelementptr i8, i8* %857, i64 112
  %928 = bitcast i8* %926 to i64*
  %929 = load i64, i64* %928, align 1
  %930 = bitcast i8* %927 to i64*
  store i64 %929, i64* %930, align 1
  %931 = getelementptr i8, i8* %856, i64 4915200
  %932 = getelementptr i8, i8* %857, i64 120
  %933 = bitcast i8* %931 to i64*
  %934 = load i64, i64* %933, align 1
  %935 = bitcast i8* %932 to i64*
  store i64 %934, i64* %935, align 1
  %936 = getelementptr i8, i8* %856, i64 5242880
  %937 = getelementptr i8, i8* %857, i64 128
  %938 = bitcast i8* %936 to i64*
  %939 = load i64, i64* %938, align 1
  %940 = bitcast i8* %937 to i64*
  store i64 %939, i64* %940, align 1
  %941 = getelementptr i8, i8* %856, i64 5570560
  %942 = getelementptr i8, i8* %857, i64 136
  %943 = bitcast i8* %941 to i64*
  %944 = load i64, i64* %943, align 1
  %945 = bitcast i8* %942 to i64*
  store i64 %944, i64* %945, align 1
  %946 = getelementptr i8, i8* %856, i64 5898240
  %947 = getelementptr i8, i8* %857, i64 144
  %948 = bitcast i8* %946 to i64*
  %949 = load i64, i64* %948, align 1
  %950 = bitcast i8* %947 to i64*
  store i64 %949, i64* %950, align 1
  %951 = getelementptr i8, i8* %856, i64 6225920
  %952 = getelementptr i8, i8* %857, i64 152
  %953 = bitcast i8* %951 to i64*
  %954 = load i64, i64* %953, align 1
  %955 = bitcast i8* %952 to i64*
  store i64 %954, i64* %955, align 1
  %956 = getelementptr i8, i8* %856, i64 6553600
  %957 = getelementptr i8, i8* %857, i64 160
  %958 = bitcast i8* %956 to i64*
  %959 = load i64, i64* %958, align 1
  %960 = bitcast i8* %957 to i64*
  store i64 %959, i64* %960, align 1
  %961 = getelementptr i8, i8* %856, i64 6881280
  %962 = getelementptr i8, i8* %857, i64 168
  %963 = bitcast i8* %961 to i64*
  %964 = load i64, i64* %963, align 1
  %965 = bitcast i8* %962 to i64*
  store i64 %964, i64* %965, align 1
  %966 = getelementptr i8, i8* %856, i64 7208960
  %967 = getelementptr i8, i8* %857, i64 176
  %968 = bitcast i8* %966 to i64*
  %969 = load i64, i64* %968, align 1
  %970 = bitcast i8* %967 to i64*
  store i64 %969, i64* %970, align 1
  %971 = getelementptr i8, i8* %856, i64 7536640
  %972 = getelementptr i8, i8* %857, i64 184
  %973 = bitcast i8* %971 to i64*
  %974 = load i64, i64* %973, align 1
  %975 = bitcast i8* %972 to i64*
  store i64 %974, i64* %975, align 1
  %976 = getelementptr i8, i8* %856, i64 8
  %977 = add i64 %i7, 1
  %978 = icmp slt i64 %977, 8
  br i1 %978, label %latch, label %done6

done6:                                            ; preds = %loop5, %loop1
  %979 = phi i8* [ %out4, %loop1 ], [ %976, %loop5 ]
  %980 = add i64 %i3, 1
  %981 = icmp slt i64 %980, 8
  br i1 %981, label %latch9, label %done2

latch:                                            ; preds = %loop5
  br label %loop5

latch9:                                           ; preds = %done6
  br label %loop1

latch10:                                          ; preds = %done2
  br label %loop

loop11:                                           ; preds = %latch15, %part
  %i13 = phi i64 [ %2, %part ], [ %985, %latch15 ]
  %out14 = phi i8* [ %1, %part ], [ %984, %latch15 ]
  %982 = mul i64 %i13, 8
  %983 = getelementptr i8, i8* %0, i64 %982
  call void @dl_bd6e43fc572f3035(i8* %983, i8* %out14, i64 0, i64 80)
  %984 = getelementptr i8, i8* %out14, i64 327680
  %985 = add i64 %i13, 1
  %986 = icmp slt i64 %985, %3
  br i1 %986, label %latch15, label %done12

done12:                                           ; preds = %loop11, %part
  %987 = phi i8* [ %1, %part ], [ %984, %loop11 ]
  ret void

latch15:                                          ; preds = %loop11
  br label %loop11
}

define void @dl_1d7397f400f973a4(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp slt i64 %2, %3
  br i1 %4, label %loop, label %done

loop:                                             ; preds = %latch5, %entry
  %i = phi i64 [ %2, %entry ], [ %332, %latch5 ]
  %out = phi i8* [ %1, %entry ], [ %331, %latch5 ]
  %5 = mul i64 %i, 786432
  %6 = getelementptr i8, i8* %0, i64 %5
  br i1 true, label %loop1, label %done2

done:                                             ; preds = %done2, %entry
  %7 = phi i8* [ %1, %entry ], [ %331, %done2 ]
  ret void

loop1:                                            ; preds = %latch, %loop
  %i3 = phi i64 [ 0, %loop ], [ %329, %latch ]
  %out4 = phi i8* [ %out, %loop ], [ %328, %latch ]
  %8 = mul i64 %i3, 49152
  %9 = getelementptr i8, i8* %6, i64 %8
  %10 = bitcast i8* %9 to i64*
  %11 = load i64, i64* %10, align 1
  %12 = bitcast i8* %out4 to i64*
  store i64 %11, i64* %12, align 1
  %13 = getelementptr i8, i8* %out4, i64 8
  %14 = getelementptr i8, i8* %9, i64 192
  %15 = bitcast i8* %14 to i64*
  %16 = load i64, i64* %15, align 1
  %17 = bitcast i8* %13 to i64*
  store i64 %16, i64* %17, align 1
  %18 = getelementptr i8, i8* %13, i64 8
  %19 = getelementptr i8, i8* %9, i64 384
  %20 = bitcast i8* %19 to i64*
  %21 = load i64, i64* %20, align 1
  %22 = bitcast i8* %18 to i64*
  store i64 %21, i64* %22, align 1
  %23 = getelementptr i8, i8* %18, i64 8
  %24 = getelementptr i8, i8* %9, i64 576
  %25 = bitcast i8* %24 to i64*
  %26 = load i64, i64* %25, align 1
  %27 = bitcast i8* %23 to i64*
  store i64 %26, i64* %27, align 1
  %28 = getelementptr i8, i8* %23, i64 8
  %29 = getelementptr i8, i8* %9, i64 768
  %30 = bitcast i8* %29 to i64*
  %31 = load i64, i64* %30, align 1
  %32 = bitcast i8* %28 to i64*
  store i64 %31, i64* %32, align 1
  %33 = getelementptr i8, i8* %28, i64 8
  %34 = getelementptr i8, i8* %9, i64 960
  %35 = bitcast i8* %34 to i64*
  %36 = load i64, i64* %35, align 1
  %37 = bitcast i8* %33 to i64*
  store i64 %36, i64* %37, align 1
  %38 = getelementptr i8, i8* %33, i64 8
  %39 = getelementptr i8, i8* %9, i64 1152
  %40 = bitcast i8* %39 to i64*
  %41 = load i64, i64* %40, align 1
  %42 = bitcast i8* %38 to i64*
  store i64 %41, i64* %42, align 1
  %43 = getelementptr i8, i8* %38, i64 8
  %44 = getelementptr i8, i8* %9, i64 1344
  %45 = bitcast i8* %44 to i64*
  %46 = load i64, i64* %45, align 1
  %47 = bitcast i8* %43 to i64*
  store i64 %46, i64* %47, align 1
  %48 = getelementptr i8, i8* %43, i64 8
  %49 = getelementptr i8, i8* %9, i64 3072
  %50 = bitcast i8* %49 to i64*
  %51 = load i64, i64* %50, align 1
  %52 = bitcast i8* %48 to i64*
  store i64 %51, i64* %52, align 1
  %53 = getelementptr i8, i8* %48, i64 8
  %54 = getelementptr i8, i8* %49, i64 192
  %55 = bitcast i8* %54 to i64*
  %56 = load i64, i64* %55, align 1
  %57 = bitcast i8* %53 to i64*
  store i64 %56, i64* %57, align 1
  %58 = getelementptr i8, i8* %53, i64 8
  %59 = getelementptr i8, i8* %49, i64 384
  %60 = bitcast i8* %59 to i64*
  %61 = load i64, i64* %60, align 1
  %62 = bitcast i8* %58 to i64*
  store i64 %61, i64* %62, align 1
  %63 = getelementptr i8, i8* %58, i64 8
  %64 = getelementptr i8, i8* %49, i64 576
  %65 = bitcast i8* %64 to i64*
  %66 = load i64, i64* %65, align 1
  %67 = bitcast i8* %63 to i64*
  store i64 %66, i64* %67, align 1
  %68 = getelementptr i8, i8* %63, i64 8
  %69 = getelementptr i8, i8* %49, i64 768
  %70 = bitcast i8* %69 to i64*
  %71 = load i64, i64* %70, align 1
  %72 = bitcast i8* %68 to i64*
  store i64 %71, i64* %72, align 1
  %73 = getelementptr i8, i8* %68, i64 8
  %74 = getelementptr i8, i8* %49, i64 960
  %75 = bitcast i8* %74 to i64*
  %76 = load i64, i64* %75, align 1
  %77 = bitcast i8* %73 to i64*
  store i64 %76, i64* %77, align 1
  %78 = getelementptr i8, i8* %73, i64 8
  %79 = getelementptr i8, i8* %49, i64 1152
  %80 = bitcast i8* %79 to i64*
  %81 = load i64, i64* %80, align 1
  %82 = bitcast i8* %78 to i64*
  store i64 %81, i64* %82, align 1
  %83 = getelementptr i8, i8* %78, i64 8
  %84 = getelementptr i8, i8* %49, i64 1344
  %85 = bitcast i8* %84 to i64*
  %86 = load i64, i64* %85, align 1
  %87 = bitcast i8* %83 to i64*
  store i64 %86, i64* %87, align 1
  %88 = getelementptr i8, i8* %83, i64 8
  %89 = getelementptr i8, i8* %9, i64 6144
  %90 = bitcast i8* %89 to i64*
  %91 = load i64, i64* %90, align 1
  %92 = bitcast i8* %88 to i64*
  store i64 %91, i64* %92, align 1
  %93 = getelementptr i8, i8* %88, i64 8
  %94 = getelementptr i8, i8* %89, i64 192
  %95 = bitcast i8* %94 to i64*
  %96 = load i64, i64* %95, align 1
  %97 = bitcast i8* %93 to i64*
  store i64 %96, i64* %97, align 1
  %98 = getelementptr i8, i8* %93, i64 8
  %99 = getelementptr i8, i8* %89, i64 384
  %100 = bitcast i8* %99 to i64*
  %101 = load i64, i64* %100, align 1
  %102 = bitcast i8* %98 to i64*
  store i64 %101, i64* %102, align 1
  %103 = getelementptr i8, i8* %98, i64 8
  %104 = getelementptr i8, i8* %89, i64 576
  %105 = bitcast i8* %104 to i64*
  %106 = load i64, i64* %105, align 1
  %107 = bitcast i8* %103 to i64*
  store i64 %106, i64* %107, align 1
  %108 = getelementptr i8, i8* %103, i64 8
  %109 = getelementptr i8, i8* %89, i64 768
  %110 = bitcast i8* %109 to i64*
  %111 = load i64, i64* %110, align 1
  %112 = bitcast i8* %108 to i64*
  store i64 %111, i64* %112, align 1
  %113 = getelementptr i8, i8* %108, i64 8
  %114 = getelementptr i8, i8* %89, i64 960
  %115 = bitcast i8* %114 to i64*
  %116 = load i64, i64* %115, align 1
  %117 = bitcast i8* %113 to i64*
  store i64 %116, i64* %117, align 1
  %118 = getelementptr i8, i8* %113, i64 8
  %119 = getelementptr i8, i8* %89, i64 1152
  %120 = bitcast i8* %119 to i64*
  %121 = load i64, i64* %120, align 1
  %122 = bitcast i8* %118 to i64*
  store i64 %121, i64* %122, align 1
  %123 = getelementptr i8, i8* %118, i64 8
  %124 = getelementptr i8, i8* %89, i64 1344
  %125 = bitcast i8* %124 to i64*
  %126 = load i64, i64* %125, align 1
  %127 = bitcast i8* %123 to i64*
  store i64 %126, i64* %127, align 1
  %128 = getelementptr i8, i8* %123, i64 8
  %129 = getelementptr i8, i8* %9, i64 9216
  %130 = bitcast i8* %129 to i64*
  %131 = load i64, i64* %130, align 1
  %132 = bitcast i8* %128 to i64*
  store i64 %131, i64* %132, align 1
  %133 = getelementptr i8, i8* %128, i64 8
  %134 = getelementptr i8, i8* %129, i64 192
  %135 = bitcast i8* %134 to i64*
  %136 = load i64, i64* %135, align 1
  %137 = bitcast i8* %133 to i64*
  store i64 %136, i64* %137, align 1
  %138 = getelementptr i8, i8* %133, i64 8
  %139 = getelementptr i8, i8* %129, i64 384
  %140 = bitcast i8* %139 to i64*
  %141 = load i64, i64* %140, align 1
  %142 = bitcast i8* %138 to i64*
  store i64 %141, i64* %142, align 1
  %143 = getelementptr i8, i8* %138, i64 8
  %144 = getelementptr i8, i8* %129, i64 576
  %145 = bitcast i8* %144 to i64*
  %146 = load i64, i64* %145, align 1
  %147 = bitcast i8* %143 to i64*
  store i64 %146, i64* %147, align 1
  %148 = getelementptr i8, i8* %143, i64 8
  %149 = getelementptr i8, i8* %129, i64 768
  %150 = bitcast i8* %149 to i64*
  %151 = load i64, i64* %150, align 1
  %152 = bitcast i8* %148 to i64*
  store i64 %151, i64* %152, align 1
  %153 = getelementptr i8, i8* %148, i64 8
  %154 = getelementptr i8, i8* %129, i64 960
  %155 = bitcast i8* %154 to i64*
  %156 = load i64, i64* %155, align 1
  %157 = bitcast i8* %153 to i64*
  store i64 %156, i64* %157, align 1
  %158 = getelementptr i8, i8* %153, i64 8
  %159 = getelementptr i8, i8* %129, i64 1152
  %160 = bitcast i8* %159 to i64*
  %161 = load i64, i64* %160, align 1
  %162 = bitcast i8* %158 to i64*
  store i64 %161, i64* %162, align 1
  %163 = getelementptr i8, i8* %158, i64 8
  %164 = getelementptr i8, i8* %129, i64 1344
  %165 = bitcast i8* %164 to i64*
  %166 = load i64, i64* %165, align 1
  %167 = bitcast i8* %163 to i64*
  store i64 %166, i64* %167, align 1
  %168 = getelementptr i8, i8* %163, i64 8
  %169 = getelementptr i8, i8* %9, i64 12288
  %170 = bitcast i8* %169 to i64*
  %171 = load i64, i64* %170, align 1
  %172 = bitcast i8* %168 to i64*
  store i64 %171, i64* %172, align 1
  %173 = getelementptr i8, i8* %168, i64 8
  %174 = getelementptr i8, i8* %169, i64 192
  %175 = bitcast i8* %174 to i64*
  %176 = load i64, i64* %175, align 1
  %177 = bitcast i8* %173 to i64*
  store i64 %176, i64* %177, align 1
  %178 = getelementptr i8, i8* %173, i64 8
  %179 = getelementptr i8, i8* %169, i64 384
  %180 = bitcast i8* %179 to i64*
  %181 = load i64, i64* %180, align 1
  %182 = bitcast i8* %178 to i64*
  store i64 %181, i64* %182, align 1
  %183 = getelementptr i8, i8* %178, i64 8
  %184 = getelementptr i8, i8* %169, i64 576
  %185 = bitcast i8* %184 to i64*
  %186 = load i64, i64* %185, align 1
  %187 = bitcast i8* %183 to i64*
  store i64 %186, i64* %187, align 1
  %188 = getelementptr i8, i8* %183, i64 8
  %189 = getelementptr i8, i8* %169, i64 768
  %190 = bitcast i8* %189 to i64*
  %191 = load i64, i64* %190, align 1
  %192 = bitcast i8* %188 to i64*
  store i64 %191, i64* %192, align 1
  %193 = getelementptr i8, i8* %188, i64 8
  %194 = getelementptr i8, i8* %169, i64 960
  %195 = bitcast i8* %194 to i64*
  %196 = load i64, i64* %195, align 1
  %197 = bitcast i8* %193 to i64*
  store i64 %196, i64* %197, align 1
  %198 = getelementptr i8, i8* %193, i64 8
  %199 = getelementptr i8, i8* %169, i64 1152
  %200 = bitcast i8* %199 to i64*
  %201 = load i64, i64* %200, align 1
  %202 = bitcast i8* %198 to i64*
  store i64 %201, i64* %202, align 1
  %203 = getelementptr i8, i8* %198, i64 8
  %204 = getelementptr i8, i8* %169, i64 1344
  %205 = bitcast i8* %204 to i64*
  %206 = load i64, i64* %205, align 1
  %207 = bitcast i8* %203 to i64*
  store i64 %206, i64* %207, align 1
  %208 = getelementptr i8, i8* %203, i64 8
  %209 = getelementptr i8, i8* %9, i64 15360
  %210 = bitcast i8* %209 to i64*
  %211 = load i64, i64* %210, align 1
  %212 = bitcast i8* %208 to i64*
  store i64 %211, i64* %212, align 1
  %213 = getelementptr i8, i8* %208, i64 8
  %214 = getelementptr i8, i8* %209, i64 192
  %215 = bitcast i8* %214 to i64*
  %216 = load i64, i64* %215, align 1
  %217 = bitcast i8* %213 to i64*
  store i64 %216, i64* %217, align 1
  %218 = getelementptr i8, i8* %213, i64 8
  %219 = getelementptr i8, i8* %209, i64 384
  %220 = bitcast i8* %219 to i64*
  %221 = load i64, i64* %220, align 1
  %222 = bitcast i8* %218 to i64*
  store i64 %221, i64* %222, align 1
  %223 = getelementptr i8, i8* %218, i64 8
  %224 = getelementptr i8, i8* %209, i64 576
  %225 = bitcast i8* %224 to i64*
  %226 = load i64, i64* %225, align 1
  %227 = bitcast i8* %223 to i64*
  store i64 %226, i64* %227, align 1
  %228 = getelementptr i8, i8* %223, i64 8
  %229 = getelementptr i8, i8* %209, i64 768
  %230 = bitcast i8* %229 to i64*
  %231 = load i64, i64* %230, align 1
  %232 = bitcast i8* %228 to i64*
  store i64 %231, i64* %232, align 1
  %233 = getelementptr i8, i8* %228, i64 8
  %234 = getelementptr i8, i8* %209, i64 960
  %235 = bitcast i8* %234 to i64*
  %236 = load i64, i64* %235, align 1
  %237 = bitcast i8* %233 to i64*
  store i64 %236, i64* %237, align 1
  %238 = getelementptr i8, i8* %233, i64 8
  %239 = getelementptr i8, i8* %209, i64 1152
  %240 = bitcast i8* %239 to i64*
  %241 = load i64, i64* %240, align 1
  %242 = bitcast i8* %238 to i64*
  store i64 %241, i64* %242, align 1
  %243 = getelementptr i8, i8* %238, i64 8
  %244 = getelementptr i8, i8* %209, i64 1344
  %245 = bitcast i8* %244 to i64*
  %246 = load i64, i64* %245, align 1
  %247 = bitcast i8* %243 to i64*
  store i64 %246, i64* %247, align 1
  %248 = getelementptr i8, i8* %243, i64 8
  %249 = getelementptr i8, i8* %9, i64 18432
  %250 = bitcast i8* %249 to i64*
  %251 = load i64, i64* %250, align 1
  %252 = bitcast i8* %248 to i64*
  store i64 %251, i64* %252, align 1
  %253 = getelementptr i8, i8* %248, i64 8
  %254 = getelementptr i8, i8* %249, i64 192
  %255 = bitcast i8* %254 to i64*
  %256 = load i64, i64* %255, align 1
  %257 = bitcast i8* %253 to i64*
  store i64 %256, i64* %257, align 1
  %258 = getelementptr i8, i8* %253, i64 8
  %259 = getelementptr i8, i8* %249, i64 384
  %260 = bitcast i8* %259 to i64*
  %261 = load i64, i64* %260, align 1
  %262 = bitcast i8* %258 to i64*
  store i64 %261, i64* %262, align 1
  %263 = getelementptr i8, i8* %258, i64 8
  %264 = getelementptr i8, i8* %249, i64 576
  %265 = bitcast i8* %264 to i64*
  %266 = load i64, i64* %265, align 1
  %267 = bitcast i8* %263 to i64*
  store i64 %266, i64* %267, align 1
  %268 = getelementptr i8, i8* %263, i64 8
  %269 = getelementptr i8, i8* %249, i64 768
  %270 = bitcast i8* %269 to i64*
  %271 = load i64, i64* %270, align 1
  %272 = bitcast i8* %268 to i64*
  store i64 %271, i64* %272, align 1
  %273 = getelementptr i8, i8* %268, i64 8
  %274 = getelementptr i8, i8* %249, i64 960
  %275 = bitcast i8* %274 to i64*
  %276 = load i64, i64* %275, align 1
  %277 = bitcast i8* %273 to i64*
  store i64 %276, i64* %277, align 1
  %278 = getelementptr i8, i8* %273, i64 8
  %279 = getelementptr i8, i8* %249, i64 1152
  %280 = bitcast i8* %279 to i64*
  %281 = load i64, i64* %280, align 1
  %282 = bitcast i8* %278 to i64*
  store i64 %281, i64* %282, align 1
  %283 = getelementptr i8, i8* %278, i64 8
  %284 = getelementptr i8, i8* %249, i64 1344
  %285 = bitcast i8* %284 to i64*
  %286 = load i64, i64* %285, align 1
  %287 = bitcast i8* %283 to i64*
  store i64 %286, i64* %287, align 1
  %288 = getelementptr i8, i8* %283, i64 8
  %289 = getelementptr i8, i8* %9, i64 21504
  %290 = bitcast i8* %289 to i64*
  %291 = load i64, i64* %290, align 1
  %292 = bitcast i8* %288 to i64*
  store i64 %291, i64* %292, align 1
  %293 = getelementptr i8, i8* %288, i64 8
  %294 = getelementptr i8, i8* %289, i64 192
  %295 = bitcast i8* %294 to i64*
  %296 = load i64, i64* %295, align 1
  %297 = bitcast i8* %293 to i64*
  store i64 %296, i64* %297, align 1
  %298 = getelementptr i8, i8* %293, i64 8
  %299 = getelementptr i8, i8* %289, i64 384
  %300 = bitcast i8* %299 to i64*
  %301 = load i64, i64* %300, align 1
  %302 = bitcast i8* %298 to i64*
  store i64 %301, i64* %302, align 1
  %303 = getelementptr i8, i8* %298, i64 8
  %304 = getelementptr i8, i8* %289, i64 576
  %305 = bitcast i8* %304 to i64*
  %306 = load i64, i64* %305, align 1
  %307 = bitcast i8* %303 to i64*
  store i64 %306, i64* %307, align 1
  %308 = getelementptr i8, i8* %303, i64 8
  %309 = getelementptr i8, i8* %289, i64 768
  %310 = bitcast i8* %309 to i64*
  %311 = load i64, i64* %310, align 1
  %312 = bitcast i8* %308 to i64*
  store i64 %311, i64* %312, align 1
  %313 = getelementptr i8, i8* %308, i64 8
  %314 = getelementptr i8, i8* %289, i64 960
  %315 = bitcast i8* %314 to i64*
  %316 = load i64, i64* %315, align 1
  %317 = bitcast i8* %313 to i64*
  store i64 %316, i64* %317, align 1
  %318 = getelementptr i8, i8* %313, i64 8
  %319 = getelementptr i8, i8* %289, i64 1152
  %320 = bitcast i8* %319 to i64*
  %321 = load i64, i64* %320, align 1
  %322 = bitcast i8* %318 to i64*
  store i64 %321, i64* %322, align 1
  %323 = getelementptr i8, i8* %318, i64 8
  %324 = getelementptr i8, i8* %289, i64 1344
  %325 = bitcast i8* %324 to i64*
  %326 = load i64, i64* %325, align 1
  %327 = bitcast i8* %323 to i64*
  store i64 %326, i64* %327, align 1
  %328 = getelementptr i8, i8* %323, i64 8
  %329 = add i64 %i3, 1
  %330 = icmp slt i64 %329, 8
  br i1 %330, label %latch, label %done2

done2:                                            ; preds = %loop1, %loop
  %331 = phi i8* [ %out, %loop ], [ %328, %loop1 ]
  %332 = add i64 %i, 1
  %333 = icmp slt i64 %332, %3
  br i1 %333, label %latch5, label %done

latch:                                            ; preds = %loop1
  br label %loop1

latch5:                                           ; preds = %done2
  br label %loop
}

define void @dl_bd6e43fc572f3035(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp slt i64 %2, %3
  br i1 %4, label %loop, label %done

loop:                                             ; preds = %latch5, %entry
  %i = phi i64 [ %2, %entry ], [ %332, %latch5 ]
  %out = phi i8* [ %1, %entry ], [ %331, %latch5 ]
  %5 = mul i64 %i, 786432
  %6 = getelementptr i8, i8* %0, i64 %5
  br i1 true, label %loop1, label %done2

done:                                             ; preds = %done2, %entry
  %7 = phi i8* [ %1, %entry ], [ %331, %done2 ]
  ret void

loop1:                                            ; preds = %latch, %loop
  %i3 = phi i64 [ 0, %loop ], [ %329, %latch ]
  %out4 = phi i8* [ %out, %loop ], [ %328, %latch ]
  %8 = mul i64 %i3, 49152
  %9 = getelementptr i8, i8* %6, i64 %8
  %10 = bitcast i8* %out4 to i64*
  %11 = load i64, i64* %10, align 1
  %12 = bitcast i8* %9 to i64*
  store i64 %11, i64* %12, align 1
  %13 = getelementptr i8, i8* %out4, i64 8
  %14 = getelementptr i8, i8* %9, i64 192
  %15 = bitcast i8* %13 to i64*
  %16 = load i64, i64* %15, align 1
  %17 = bitcast i8* %14 to i64*
  store i64 %16, i64* %17, align 1
  %18 = getelementptr i8, i8* %13, i64 8
  %19 = getelementptr i8, i8* %9, i64 384
  %20 = bitcast i8* %18 to i64*
  %21 = load i64, i64* %20, align 1
  %22 = bitcast i8* %19 to i64*
  store i64 %21, i64* %22, align 1
  %23 = getelementptr i8, i8* %18, i64 8
  %24 = getelementptr i8, i8* %9, i64 576
  %25 = bitcast i8* %23 to i64*
  %26 = load i64, i64* %25, align 1
  %27 = bitcast i8* %24 to i64*
  store i64 %26, i64* %27, align 1
  %28 = getelementptr i8, i8* %23, i64 8
  %29 = getelementptr i8, i8* %9, i64 768
  %30 = bitcast i8* %28 to i64*
  %31 = load i64, i64* %30, align 1
  %32 = bitcast i8* %29 to i64*
  store i64 %31, i64* %32, align 1
  %33 = getelementptr i8, i8* %28, i64 8
  %34 = getelementptr i8, i8* %9, i64 960
  %35 = bitcast i8* %33 to i64*
  %36 = load i64, i64* %35, align 1
  %37 = bitcast i8* %34 to i64*
  store i64 %36, i64* %37, align 1
  %38 = getelementptr i8, i8* %33, i64 8
  %39 = getelementptr i8, i8* %9, i64 1152
  %40 = bitcast i8* %38 to i64*
  %41 = load i64, i64* %40, align 1
  %42 = bitcast i8* %39 to i64*
  store i64 %41, i64* %42, align 1
  %43 = getelementptr i8, i8* %38, i64 8
  %44 = getelementptr i8, i8* %9, i64 1344
  %45 = bitcast i8* %43 to i64*
  %46 = load i64, i64* %45, align 1
  %47 = bitcast i8* %44 to i64*
  store i64 %46, i64* %47, align 1
  %48 = getelementptr i8, i8* %43, i64 8
  %49 = getelementptr i8, i8* %9, i64 3072
  %50 = bitcast i8* %48 to i64*
  %51 = load i64, i64* %50, align 1
  %52 = bitcast i8* %49 to i64*
  store i64 %51, i64* %52, align 1
  %53 = getelementptr i8, i8* %48, i64 8
  %54 = getelementptr i8, i8* %49, i64 192
  %55 = bitcast i8* %53 to i64*
  %56 = load i64, i64* %55, align 1
  %57 = bitcast i8* %54 to i64*
  store i64 %56, i64* %57, align 1
  %58 = getelementptr i8, i8* %53, i64 8
  %59 = getelementptr i8, i8* %49, i64 384
  %60 = bitcast i8* %58 to i64*
  %61 = load i64, i64* %60, align 1
  %62 = bitcast i8* %59 to i64*
  store i64 %61, i64* %62, align 1
  %63 = getelementptr i8, i8* %58, i64 8
  %64 = getelementptr i8, i8* %49, i64 576
  %65 = bitcast i8* %63 to i64*
  %66 = load i64, i64* %65, align 1
  %67 = bitcast i8* %64 to i64*
  store i64 %66, i64* %67, align 1
  %68 = getelementptr i8, i8* %63, i64 8
  %69 = getelementptr i8, i8* %49, i64 768
  %70 = bitcast i8* %68 to i64*
  %71 = load i64, i64* %70, align 1
  %72 = bitcast i8* %69 to i64*
  store i64 %71, i64* %72, align 1
  %73 = getelementptr i8, i8* %68, i64 8
  %74 = getelementptr i8, i8* %49, i64 960
  %75 = bitcast i8* %73 to i64*
  %76 = load i64, i64* %75, align 1
  %77 = bitcast i8* %74 to i64*
  store i64 %76, i64* %77, align 1
  %78 = getelementptr i8, i8* %73, i64 8
  %79 = getelementptr i8, i8* %49, i64 1152
  %80 = bitcast i8* %78 to i64*
  %81 = load i64, i64* %80, align 1
  %82 = bitcast i8* %79 to i64*
  store i64 %81, i64* %82, align 1
  %83 = getelementptr i8, i8* %78, i64 8
  %84 = getelementptr i8, i8* %49, i64 1344
  %85 = bitcast i8* %83 to i64*
  %86 = load i64, i64* %85, align 1
  %87 = bitcast i8* %84 to i64*
  store i64 %86, i64* %87, align 1
  %88 = getelementptr i8, i8* %83, i64 8
  %89 = getelementptr i8, i8* %9, i64 6144
  %90 = bitcast i8* %88 to i64*
  %91 = load i64, i64* %90, align 1
  %92 = bitcast i8* %89 to i64*
  store i64 %91, i64* %92, align 1
  %93 = getelementptr i8, i8* %88, i64 8
  %94 = getelementptr i8, i8* %89, i64 192
  %95 = bitcast i8* %93 to i64*
  %96 = load i64, i64* %95, align 1
  %97 = bitcast i8* %94 to i64*
  store i64 %96, i64* %97, align 1
  %98 = getelementptr i8, i8* %93, i64 8
  %99 = getelementptr i8, i8* %89, i64 384
  %100 = bitcast i8* %98 to i64*
  %101 = load i64, i64* %100, align 1
  %102 = bitcast i8* %99 to i64*
  store i64 %101, i64* %102, align 1
  %103 = getelementptr i8, i8* %98, i64 8
  %104 = getelementptr i8, i8* %89, i64 576
  %105 = bitcast i8* %103 to i64*
  %106 = load i64, i64* %105, align 1
  %107 = bitcast i8* %104 to i64*
  store i64 %106, i64* %107, align 1
  %108 = getelementptr i8, i8* %103, i64 8
  %109 = getelementptr i8, i8* %89, i64 768
  %110 = bitcast i8* %108 to i64*
  %111 = load i64, i64* %110, align 1
  %112 = bitcast i8* %109 to i64*
  store i64 %111, i64* %112, align 1
  %113 = getelementptr i8, i8* %108, i64 8
  %114 = getelementptr i8, i8* %89, i64 960
  %115 = bitcast i8* %113 to i64*
  %116 = load i64, i64* %115, align 1
  %117 = bitcast i8* %114 to i64*
  store i64 %116, i64* %117, align 1
  %118 = getelementptr i8, i8* %113, i64 8
  %119 = getelementptr i8, i8* %89, i64 1152
  %120 = bitcast i8* %118 to i64*
  %121 = load i64, i64* %120, align 1
  %122 = bitcast i8* %119 to i64*
  store i64 %121, i64* %122, align 1
  %123 = getelementptr i8, i8* %118, i64 8
  %124 = getelementptr i8, i8* %89, i64 1344
  %125 = bitcast i8* %123 to i64*
  %126 = load i64, i64* %125, align 1
  %127 = bitcast i8* %124 to i64*
  store i64 %126, i64* %127, align 1
  %128 = getelementptr i8, i8* %123, i64 8
  %129 = getelementptr i8, i8* %9, i64 9216
  %130 = bitcast i8* %128 to i64*
  %131 = load i64, i64* %130, align 1
  %132 = bitcast i8* %129 to i64*
  store i64 %131, i64* %132, align 1
  %133 = getelementptr i8, i8* %128, i64 8
  %134 = getelementptr i8, i8* %129, i64 192
  %135 = bitcast i8* %133 to i64*
  %136 = load i64, i64* %135, align 1
  %137 = bitcast i8* %134 to i64*
  store i64 %136, i64* %137, align 1
  %138 = getelementptr i8, i8* %133, i64 8
  %139 = getelementptr i8, i8* %129, i64 384
  %140 = bitcast i8* %138 to i64*
  %141 = load i64, i64* %140, align 1
  %142 = bitcast i8* %139 to i64*
  store i64 %141, i64* %142, align 1
  %143 = getelementptr i8, i8* %138, i64 8
  %144 = getelementptr i8, i8* %129, i64 576
  %145 = bitcast i8* %143 to i64*
  %146 = load i64, i64* %145, align 1
  %147 = bitcast i8* %144 to i64*
  store i64 %146, i64* %147, align 1
  %148 = getelementptr i8, i8* %143, i64 8
  %149 = getelementptr i8, i8* %129, i64 768
  %150 = bitcast i8* %148 to i64*
  %151 = load i64, i64* %150, align 1
  %152 = bitcast i8* %149 to i64*
  store i64 %151, i64* %152, align 1
  %153 = getelementptr i8, i8* %148, i64 8
  %154 = getelementptr i8, i8* %129, i64 960
  %155 = bitcast i8* %153 to i64*
  %156 = load i64, i64* %155, align 1
  %157 = bitcast i8* %154 to i64*
  store i64 %156, i64* %157, align 1
  %158 = getelementptr i8, i8* %153, i64 8
  %159 = getelementptr i8, i8* %129, i64 1152
  %160 = bitcast i8* %158 to i64*
  %161 = load i64, i64* %160, align 1
  %162 = bitcast i8* %159 to i64*
  store i64 %161, i64* %162, align 1
  %163 = getelementptr i8, i8* %158, i64 8
  %164 = getelementptr i8, i8* %129, i64 1344
  %165 = bitcast i8* %163 to i64*
  %166 = load i64, i64* %165, align 1
  %167 = bitcast i8* %164 to i64*
  store i64 %166, i64* %167, align 1
  %168 = getelementptr i8, i8* %163, i64 8
  %169 = getelementptr i8, i8* %9, i64 12288
  %170 = bitcast i8* %168 to i64*
  %171 = load i64, i64* %170, align 1
  %172 = bitcast i8* %169 to i64*
  store i64 %171, i64* %172, align 1
  %173 = getelementptr i8, i8* %168, i64 8
  %174 = getelementptr i8, i8* %169, i64 192
  %175 = bitcast i8* %173 to i64*
  %176 = load i64, i64* %175, align 1
  %177 = bitcast i8* %174 to i64*
  store i64 %176, i64* %177, align 1
  %178 = getelementptr i8, i8* %173, i64 8
  %179 = getelementptr i8, i8* %169, i64 384
  %180 = bitcast i8* %178 to i64*
  %181 = load i64, i64* %180, align 1
  %182 = bitcast i8* %179 to i64*
  store i64 %181, i64* %182, align 1
  %183 = getelementptr i8, i8* %178, i64 8
  %184 = getelementptr i8, i8* %169, i64 576
  %185 = bitcast i8* %183 to i64*
  %186 = load i64, i64* %185, align 1
  %187 = bitcast i8* %184 to i64*
  store i64 %186, i64* %187, align 1
  %188 = getelementptr i8, i8* %183, i64 8
  %189 = getelementptr i8, i8* %169, i64 768
  %190 = bitcast i8* %188 to i64*
  %191 = load i64, i64* %190, align 1
  %192 = bitcast i8* %189 to i64*
  store i64 %191, i64* %192, align 1
  %193 = getelementptr i8, i8* %188, i64 8
  %194 = getelementptr i8, i8* %169, i64 960
  %195 = bitcast i8* %193 to i64*
  %196 = load i64, i64* %195, align 1
  %197 = bitcast i8* %194 to i64*
  store i64 %196, i64* %197, align 1
  %198 = getelementptr i8, i8* %193, i64 8
  %199 = getelementptr i8, i8* %169, i64 1152
  %200 = bitcast i8* %198 to i64*
  %201 = load i64, i64* %200, align 1
  %202 = bitcast i8* %199 to i64*
  store i64 %201, i64* %202, align 1
  %203 = getelementptr i8, i8* %198, i64 8
  %204 = getelementptr i8, i8* %169, i64 1344
  %205 = bitcast i8* %203 to i64*
  %206 = load i64, i64* %205, align 1
  %207 = bitcast i8* %204 to i64*
  store i64 %206, i64* %207, align 1
  %208 = getelementptr i8, i8* %203, i64 8
  %209 = getelementptr i8, i8* %9, i64 15360
  %210 = bitcast i8* %208 to i64*
  %211 = load i64, i64* %210, align 1
  %212 = bitcast i8* %209 to i64*
  store i64 %211, i64* %212, align 1
  %213 = getelementptr i8, i8* %208, i64 8
  %214 = getelementptr i8, i8* %209, i64 192
  %215 = bitcast i8* %213 to i64*
  %216 = load i64, i64* %215, align 1
  %217 = bitcast i8* %214 to i64*
  store i64 %216, i64* %217, align 1
  %218 = getelementptr i8, i8* %213, i64 8
  %219 = getelementptr i8, i8* %209, i64 384
  %220 = bitcast i8* %218 to i64*
  %221 = load i64, i64* %220, align 1
  %222 = bitcast i8* %219 to i64*
  store i64 %221, i64* %222, align 1
  %223 = getelementptr i8, i8* %218, i64 8
  %224 = getelementptr i8, i8* %209, i64 576
  %225 = bitcast i8* %223 to i64*
  %226 = load i64, i64* %225, align 1
  %227 = bitcast i8* %224 to i64*
  store i64 %226, i64* %227, align 1
  %228 = getelementptr i8, i8* %223, i64 8
  %229 = getelementptr i8, i8* %209, i64 768
  %230 = bitcast i8* %228 to i64*
  %231 = load i64, i64* %230, align 1
  %232 = bitcast i8* %229 to i64*
  store i64 %231, i64* %232, align 1
  %233 = getelementptr i8, i8* %228, i64 8
  %234 = getelementptr i8, i8* %209, i64 960
  %235 = bitcast i8* %233 to i64*
  %236 = load i64, i64* %235, align 1
  %237 = bitcast i8* %234 to i64*
  store i64 %236, i64* %237, align 1
  %238 = getelementptr i8, i8* %233, i64 8
  %239 = getelementptr i8, i8* %209, i64 1152
  %240 = bitcast i8* %238 to i64*
  %241 = load i64, i64* %240, align 1
  %242 = bitcast i8* %239 to i64*
  store i64 %241, i64* %242, align 1
  %243 = getelementptr i8, i8* %238, i64 8
  %244 = getelementptr i8, i8* %209, i64 1344
  %245 = bitcast i8* %243 to i64*
  %246 = load i64, i64* %245, align 1
  %247 = bitcast i8* %244 to i64*
  store i64 %246, i64* %247, align 1
  %248 = getelementptr i8, i8* %243, i64 8
  %249 = getelementptr i8, i8* %9, i64 18432
  %250 = bitcast i8* %248 to i64*
  %251 = load i64, i64* %250, align 1
  %252 = bitcast i8* %249 to i64*
  store i64 %251, i64* %252, align 1
  %253 = getelementptr i8, i8* %248, i64 8
  %254 = getelementptr i8, i8* %249, i64 192
  %255 = bitcast i8* %253 to i64*
  %256 = load i64, i64* %255, align 1
  %257 = bitcast i8* %254 to i64*
  store i64 %256, i64* %257, align 1
  %258 = getelementptr i8, i8* %253, i64 8
  %259 = getelementptr i8, i8* %249, i64 384
  %260 = bitcast i8* %258 to i64*
  %261 = load i64, i64* %260, align 1
  %262 = bitcast i8* %259 to i64*
  store i64 %261, i64* %262, align 1
  %263 = getelementptr i8, i8* %258, i64 8
  %264 = getelementptr i8, i8* %249, i64 576
  %265 = bitcast i8* %263 to i64*
  %266 = load i64, i64* %265, align 1
  %267 = bitcast i8* %264 to i64*
  store i64 %266, i64* %267, align 1
  %268 = getelementptr i8, i8* %263, i64 8
  %269 = getelementptr i8, i8* %249, i64 768
  %270 = bitcast i8* %268 to i64*
  %271 = load i64, i64* %270, align 1
  %272 = bitcast i8* %269 to i64*
  store i64 %271, i64* %272, align 1
  %273 = getelementptr i8, i8* %268, i64 8
  %274 = getelementptr i8, i8* %249, i64 960
  %275 = bitcast i8* %273 to i64*
  %276 = load i64, i64* %275, align 1
  %277 = bitcast i8* %274 to i64*
  store i64 %276, i64* %277, align 1
  %278 = getelementptr i8, i8* %273, i64 8
  %279 = getelementptr i8, i8* %249, i64 1152
  %280 = bitcast i8* %278 to i64*
  %281 = load i64, i64* %280, align 1
  %282 = bitcast i8* %279 to i64*
  store i64 %281, i64* %282, align 1
  %283 = getelementptr i8, i8* %278, i64 8
  %284 = getelementptr i8, i8* %249, i64 1344
  %285 = bitcast i8* %283 to i64*
  %286 = load i64, i64* %285, align 1
  %287 = bitcast i8* %284 to i64*
  store i64 %286, i64* %287, align 1
  %288 = getelementptr i8, i8* %283, i64 8
  %289 = getelementptr i8, i8* %9, i64 21504
  %290 = bitcast i8* %288 to i64*
  %291 = load i64, i64* %290, align 1
  %292 = bitcast i8* %289 to i64*
  store i64 %291, i64* %292, align 1
  %293 = getelementptr i8, i8* %288, i64 8
  %294 = getelementptr i8, i8* %289, i64 192
  %295 = bitcast i8* %293 to i64*
  %296 = load i64, i64* %295, align 1
  %297 = bitcast i8* %294 to i64*
  store i64 %296, i64* %297, align 1
  %298 = getelementptr i8, i8* %293, i64 8
  %299 = getelementptr i8, i8* %289, i64 384
  %300 = bitcast i8* %298 to i64*
  %301 = load i64, i64* %300, align 1
  %302 = bitcast i8* %299 to i64*
  store i64 %301, i64* %302, align 1
  %303 = getelementptr i8, i8* %298, i64 8
  %304 = getelementptr i8, i8* %289, i64 576
  %305 = bitcast i8* %303 to i64*
  %306 = load i64, i64* %305, align 1
  %307 = bitcast i8* %304 to i64*
  store i64 %306, i64* %307, align 1
  %308 = getelementptr i8, i8* %303, i64 8
  %309 = getelementptr i8, i8* %289, i64 768
  %310 = bitcast i8* %308 to i64*
  %311 = load i64, i64* %310, align 1
  %312 = bitcast i8* %309 to i64*
  store i64 %311, i64* %312, align 1
  %313 = getelementptr i8, i8* %308, i64 8
  %314 = getelementptr i8, i8* %289, i64 960
  %315 = bitcast i8* %313 to i64*
  %316 = load i64, i64* %315, align 1
  %317 = bitcast i8* %314 to i64*
  store i64 %316, i64* %317, align 1
  %318 = getelementptr i8, i8* %313, i64 8
  %319 = getelementptr i8, i8* %289, i64 1152
  %320 = bitcast i8* %318 to i64*
  %321 = load i64, i64* %320, align 1
  %322 = bitcast i8* %319 to i64*
  store i64 %321, i64* %322, align 1
  %323 = getelementptr i8, i8* %318, i64 8
  %324 = getelementptr i8, i8* %289, i64 1344
  %325 = bitcast i8* %323 to i64*
  %326 = load i64, i64* %325, align 1
  %327 = bitcast i8* %324 to i64*
  store i64 %326, i64* %327, align 1
  %328 = getelementptr i8, i8* %323, i64 8
  %329 = add i64 %i3, 1
  %330 = icmp slt i64 %329, 8
  br i1 %330, label %latch, label %done2

done2:                                            ; preds = %loop1, %loop
  %331 = phi i8* [ %out, %loop ], [ %328, %loop1 ]
  %332 = add i64 %i, 1
  %333 = icmp slt i64 %332, %3
  br i1 %333, label %latch5, label %done

latch:                                            ; preds = %loop1
  br label %loop1

latch5:                                           ; preds = %done2
  br label %loop
}
